package io.github.startuptelemetry.archfixture.boot;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The JDK calls Spring Boot's rules forbid; {@link TidyCalls} makes them as the rules say. */
class LooseCalls {

	List<String> calls() throws UnsupportedEncodingException {
		return Stream.of("A".toLowerCase(), "a".toUpperCase(), URLEncoder.encode("a b", "UTF-8"),
				URLDecoder.decode("a+b", "UTF-8")).collect(Collectors.toList());
	}

}
