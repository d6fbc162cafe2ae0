package io.github.startuptelemetry;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Set;
import java.util.TreeSet;

/**
 * The classes a class file's constant pool names. Beyond what ArchUnit reads from the code, that
 * holds the class of each compile-time constant the compiler inlined ({@code CacheDirectory.PROPERTIES}
 * in {@code CacheEntry}): javac keeps it there so that dependency tools (jdeps) see the use. A
 * Javadoc reference leaves nothing there.
 */
final class ConstantPoolClasses {

	private ConstantPoolClasses() {
	}

	/** The binary names ({@code a.B$C}) of the classes the class file at that address names, arrays by their element. */
	static Set<String> of(URI classFile) {
		try (InputStream in = classFile.toURL().openStream()) {
			return of(in.readAllBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + classFile, ex);
		}
	}

	static Set<String> of(byte[] classFile) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
			if (in.readInt() != 0xCAFEBABE) {
				throw new IllegalArgumentException("Not a class file");
			}
			in.readUnsignedShort(); // minor
			in.readUnsignedShort(); // major
			int count = in.readUnsignedShort();
			String[] utf8 = new String[count];
			int[] classNameIndex = new int[count];
			for (int i = 1; i < count; i++) {
				int tag = in.readUnsignedByte();
				switch (tag) {
					case 1 -> utf8[i] = in.readUTF();
					case 7 -> classNameIndex[i] = in.readUnsignedShort();
					case 8, 16, 19, 20 -> in.skipBytes(2); // String, MethodType, Module, Package
					case 15 -> in.skipBytes(3); // MethodHandle
					case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
					case 5, 6 -> { // Long and Double take two slots
						in.skipBytes(8);
						i++;
					}
					default -> throw new IllegalArgumentException("Unknown constant pool tag " + tag + " at " + i);
				}
			}
			Set<String> names = new TreeSet<>();
			for (int i = 1; i < count; i++) {
				if (classNameIndex[i] != 0) {
					String name = utf8[classNameIndex[i]];
					if (name.startsWith("[")) {
						int element = name.indexOf('L');
						if (element < 0) {
							continue; // an array of primitives
						}
						name = name.substring(element + 1, name.length() - 1);
					}
					names.add(name.replace('/', '.'));
				}
			}
			return names;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
