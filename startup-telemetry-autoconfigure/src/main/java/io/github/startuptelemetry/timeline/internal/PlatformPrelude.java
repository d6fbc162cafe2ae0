package io.github.startuptelemetry.timeline.internal;

import java.util.List;

import io.github.startuptelemetry.timeline.Stage;

/**
 * The stages a server's platform ran before its process existed and that only the platform can
 * tell (on Kubernetes: its pod's scheduling and setup), asked once the server is ready, on a
 * thread of its own. A bean of this type (one at most) is the platform's; a server without one
 * reports as before.
 */
@FunctionalInterface
public interface PlatformPrelude {

	/**
	 * This process's stages with the platform's ahead of them, read now. Blocks (bounded by the
	 * implementation's own timeouts) and never throws: when the platform's stages cannot be had
	 * (no permission, the API unreachable) it says why, once, at debug level, and returns
	 * {@link PlatformStages#none(List)}.
	 * @param own the stages the process timed itself, contiguous (the env prelude first, then the
	 * JVM's)
	 * @return the stages to report, contiguous
	 */
	PlatformStages read(List<Stage> own);

}
