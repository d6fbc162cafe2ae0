package io.github.startuptelemetry.timeline.internal;

import java.util.List;

import io.github.startuptelemetry.timeline.Stage;

/**
 * The stages a server's platform ran before its process existed and that only the platform can
 * tell (on Kubernetes: its pod's scheduling and setup, {@code kubernetes.internal.PodTimes}). They
 * are known only after the fact, from an API call the server must not make on its way to ready,
 * so the reporter asks once the server is ready, on a thread of its own, and exports the startup
 * with them ahead of its own stages ({@link PlatformStages#ahead}).
 * <p>
 * The hook between a server's report and a platform: a bean of this type (one at most) is the
 * platform's, and a server without one reports as before.
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
