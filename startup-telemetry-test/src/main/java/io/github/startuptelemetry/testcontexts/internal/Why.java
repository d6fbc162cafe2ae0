package io.github.startuptelemetry.testcontexts.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Why a context was created rather than taken from the cache, in words a developer can act on.
 *
 * @param text the reason, one sentence
 * @param nearest the number of the earlier context in its JVM whose configuration is the
 * nearest, or {@code null} for the JVM's first
 * @param differences what differs from the nearest's configuration
 * @param sameAs the earlier context of the very same configuration, closed since, or {@code null}
 * @param otherJvm the JVM that created the same configuration before (a fork's duplicate), or
 * {@code null}: known once the run's JVMs are merged
 * @param hint what to change to reuse the nearest, or {@code null}
 */
public record Why(String text, @Nullable Integer nearest, List<Difference> differences, @Nullable Integer sameAs,
		@Nullable Long otherJvm, @Nullable String hint) {

	public Why {
		differences = List.copyOf(differences);
	}

	/** The first context of its JVM: nothing could have been reused. */
	public static Why first() {
		return new Why("the first context in its JVM", null, List.of(), null, null, null);
	}

	public boolean firstInJvm() {
		return this.nearest == null && this.sameAs == null;
	}

	/** The same, known to duplicate a context another JVM of the run created first. */
	public Why inOtherJvm(long pid) {
		return new Why(this.text, this.nearest, this.differences, this.sameAs, pid, this.hint);
	}

}
