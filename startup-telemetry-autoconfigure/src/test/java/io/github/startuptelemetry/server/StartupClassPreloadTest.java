package io.github.startuptelemetry.server;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.internal.BootLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The preload loads what it lists, in a class loader of its own here, and nothing once
 * cancelled; every name it lists is a class of the starter's class path. (That the list is what a
 * plain server loads on its way to ready is {@code PlainAppProcessTest}'s, over a real server.)
 */
class StartupClassPreloadTest {

	@Test
	void everyListedNameIsAClassOnTheStartersClassPathListedOnce() {
		assertThat(StartupClassPreload.CLASSES).doesNotHaveDuplicates();
		assertThat(StartupClassPreload.CLASSES).allSatisfy((name) -> assertThat(load(name)).as(name).isNotNull());
	}

	@Test
	void theClassesOnlyBootsOpenTelemetryNeedsAreListedThemselves() {
		assertThat(StartupClassPreload.WITH_BOOT_OPENTELEMETRY).doesNotHaveDuplicates()
			.isSubsetOf(StartupClassPreload.CLASSES);
		assertThat(load(BootLine.OPENTELEMETRY_SDK))
			.as("Boot's OpenTelemetry auto-configuration, where the gate looks").isNotNull();
		assertThat(BootLine.BOOT_3_OPENTELEMETRY_SDK).as("Boot 3's, where it looks too")
			.startsWith("org.springframework.boot.actuate.autoconfigure.");
	}

	@Test
	void aGatedNameIsLoadedOnlyWhereItsGateIsOnTheClassPath() throws Exception {
		String[] names = { Initialised.class.getName(), Gated.class.getName() };
		List<String> gated = List.of(Gated.class.getName());
		try (Isolated loader = new Isolated()) {
			new StartupClassPreload(loader, names, gated, List.of("io.github.startuptelemetry.NoSuchClass")).run();
			assertThat(loader.loaded(Initialised.class.getName())).isNotNull();
			assertThat(loader.loaded(Gated.class.getName())).as("gate closed").isNull();
		}
		try (Isolated loader = new Isolated()) {
			new StartupClassPreload(loader, names, gated,
					List.of("io.github.startuptelemetry.NoSuchClass", StartupClassPreloadTest.class.getName())).run();
			assertThat(loader.loaded(Gated.class.getName())).as("gate open").isNotNull();
		}
	}

	@Test
	void runLoadsEveryListedClassWithoutInitialisingIt() throws Exception {
		try (Isolated loader = new Isolated()) {
			String[] names = { Initialised.class.getName(), StartupClassPreload.class.getName() };
			System.clearProperty(Initialised.MARKER);
			new StartupClassPreload(loader, names).run();
			assertThat(Arrays.stream(names).map(loader::loaded)).allSatisfy((type) -> assertThat(type).isNotNull());
			assertThat(loader.loaded(Initialised.class.getName()).getClassLoader()).isSameAs(loader);
			assertThat(System.getProperty(Initialised.MARKER)).as("initialised").isNull();
		}
	}

	@Test
	void aCancelledPreloadLoadsNothingAndANameThatIsNoClassIsSkipped() throws Exception {
		try (Isolated loader = new Isolated()) {
			StartupClassPreload cancelled = new StartupClassPreload(loader, new String[] { Initialised.class.getName() });
			cancelled.cancel();
			cancelled.run();
			assertThat(loader.loaded(Initialised.class.getName())).isNull();

			new StartupClassPreload(loader, new String[] { "io.github.startuptelemetry.NoSuchClass",
					Initialised.class.getName() }).run();
			assertThat(loader.loaded(Initialised.class.getName())).isNotNull();
		}
	}

	@Test
	void bootsSwitchForBackgroundPreinitialisationTurnsItOff() {
		String before = System.getProperty(StartupClassPreload.BOOT_IGNORE);
		System.setProperty(StartupClassPreload.BOOT_IGNORE, "true");
		try {
			assertThat(StartupClassPreload.start(getClass().getClassLoader())).isNull();
		}
		finally {
			if (before == null) {
				System.clearProperty(StartupClassPreload.BOOT_IGNORE);
			}
			else {
				System.setProperty(StartupClassPreload.BOOT_IGNORE, before);
			}
		}
	}

	private static Class<?> load(String name) {
		try {
			return Class.forName(name, false, StartupClassPreloadTest.class.getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	/** Says so in a system property (seen from any class loader) once anything initialises it. */
	static final class Initialised {

		static final String MARKER = "startup-telemetry.test.preload-initialised";

		static {
			System.setProperty(MARKER, "true");
		}

	}

	/** A class loaded only behind a gate. */
	static final class Gated {

	}

	/** The test classes again, in a loader of their own whose loaded classes can be asked for. */
	static final class Isolated extends URLClassLoader {

		Isolated() throws Exception {
			super(new URL[] { classes(StartupClassPreloadTest.class), classes(StartupClassPreload.class) },
					ClassLoader.getPlatformClassLoader());
		}

		private static URL classes(Class<?> type) throws Exception {
			return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toUri().toURL();
		}

		Class<?> loaded(String name) {
			return findLoadedClass(name);
		}

	}

}
