package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SHA-256 of files' content, the part of a cache's key that says "the same jar", each file hashed
 * once per supervisor while its size and modification time stay the same.
 */
final class ContentHashes {

	private final Map<Stamp, String> hashes = new ConcurrentHashMap<>();

	/** The content hash of {@code file}, in hex. */
	String of(Path file) throws IOException {
		Path real = file.toRealPath();
		BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
		Stamp stamp = new Stamp(real, attributes.size(), attributes.lastModifiedTime().toMillis());
		String known = this.hashes.get(stamp);
		if (known != null) {
			return known;
		}
		// about 30 ms for the 30 MB sample server on a 2-core box, so once: replicas and compare rounds share a jar
		String hash = hash(real);
		this.hashes.put(stamp, hash);
		return hash;
	}

	private static String hash(Path file) throws IOException {
		MessageDigest digest = sha256();
		byte[] buffer = new byte[64 * 1024];
		try (InputStream in = Files.newInputStream(file)) {
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				digest.update(buffer, 0, read);
			}
		}
		return HexFormat.of().formatHex(digest.digest());
	}

	/** The SHA-256 of a text, in hex: a key made of several parts. */
	static String ofText(String text) {
		return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			// every JDK has it (a required algorithm of the platform)
			throw new IllegalStateException(ex);
		}
	}

	private record Stamp(Path file, long size, long modifiedMs) {

	}

}
