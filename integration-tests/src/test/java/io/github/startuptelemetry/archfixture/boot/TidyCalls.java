package io.github.startuptelemetry.archfixture.boot;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** What {@link LooseCalls} does, within Spring Boot's rules. */
class TidyCalls {

	List<String> calls() {
		return Stream.of("A".toLowerCase(Locale.ROOT), "a".toUpperCase(Locale.ROOT),
				URLEncoder.encode("a b", StandardCharsets.UTF_8), URLDecoder.decode("a+b", StandardCharsets.UTF_8))
			.toList();
	}

}
