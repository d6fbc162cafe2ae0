package io.github.startuptelemetry.launch.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.kubernetes.internal.PodWaits;
import io.github.startuptelemetry.launch.LaunchedServer.ServerExit;

/** A pod's status read for what ends its server's startup, and what does not. */
class PodFailureTest {

	@Test
	void pendingScheduledAndRunningPodsAreStillStarting() {
		assertThat(PodFailure.of(pod().build(), "server")).isNull();
		assertThat(PodFailure.of(pod().withNewStatus().withPhase("Pending").endStatus().build(), "server")).isNull();
		assertThat(PodFailure.of(withContainer(new ContainerStatusBuilder().withName("server")
			.withNewState()
			.withNewWaiting()
			.withReason("ContainerCreating")
			.endWaiting()
			.endState()
			.build()), "server")).isNull();
		assertThat(PodFailure.of(withContainer(new ContainerStatusBuilder().withName("server")
			.withNewState()
			.withNewRunning()
			.withStartedAt("2026-03-01T10:00:04Z")
			.endRunning()
			.endState()
			.build()), "server")).isNull();
	}

	@Test
	void unschedulableIsAWaitForTheSchedulerNotAFailure() {
		Pod pod = pod().withNewStatus()
			.withPhase("Pending")
			.addNewCondition()
			.withType("PodScheduled")
			.withStatus("False")
			.withReason("Unschedulable")
			.withMessage("0/3 nodes are available: 3 Insufficient cpu.")
			.endCondition()
			.endStatus()
			.build();
		assertThat(PodFailure.of(pod, "server")).isNull();
		assertThat(PodWaits.current(pod).describe()).isEqualTo(
				"waits for the scheduler (pod model-0-abcde, Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.)");
		assertThat(PodWaits.current(pod).kind()).isEqualTo(PodWaits.Kind.SCHEDULING);
	}

	@Test
	void imagePullBackOffAndConfigErrorsAreWaitsAnInvalidImageNameAFailure() {
		Pod backOff = withContainer(waiting("ImagePullBackOff", "Back-off pulling image \"nope:1\""));
		assertThat(PodFailure.of(backOff, "server")).isNull();
		assertThat(PodWaits.current(backOff).describe()).isEqualTo("waits for its image (container 'server' of pod "
				+ "model-0-abcde, ImagePullBackOff: Back-off pulling image \"nope:1\")");
		assertThat(PodWaits.current(withContainer(waiting("ErrImagePull", null))).message()).isEqualTo("no message");
		Pod config = withContainer(waiting("CreateContainerConfigError", "secret \"db\" not found"));
		assertThat(PodFailure.of(config, "server")).isNull();
		assertThat(PodWaits.current(config).kind()).isEqualTo(PodWaits.Kind.CONFIG);
		assertThat(PodFailure.of(withContainer(waiting("InvalidImageName", "couldn't parse image")), "server"))
			.isEqualTo(new ServerExit(-1, "could not pull its image (container 'server' of pod model-0-abcde, "
					+ "InvalidImageName: couldn't parse image)"));
		assertThat(PodFailure.of(withContainer(waiting("RunContainerError", "exec format error")), "server").reason())
			.startsWith("could not start its container");
	}

	@Test
	void crashLoopBackOffTellsTheLastExit() {
		ContainerStatus status = new ContainerStatusBuilder(waiting("CrashLoopBackOff",
				"back-off 10s restarting failed container=server pod=model-0-abcde"))
			.withRestartCount(1)
			.withNewLastState()
			.withNewTerminated()
			.withExitCode(3)
			.withReason("Error")
			.endTerminated()
			.endLastState()
			.build();
		assertThat(PodFailure.of(withContainer(status), "server")).isEqualTo(new ServerExit(3,
				"crash-looped (container 'server' of pod model-0-abcde, CrashLoopBackOff: back-off 10s restarting failed "
						+ "container=server pod=model-0-abcde; it last exited with code 3 (Error))"));
	}

	@Test
	void aTerminatedOrRestartedContainerExitedWithItsCode() {
		ContainerStatus terminated = new ContainerStatusBuilder().withName("server")
			.withNewState()
			.withNewTerminated()
			.withExitCode(137)
			.withReason("OOMKilled")
			.endTerminated()
			.endState()
			.build();
		assertThat(PodFailure.of(withContainer(terminated), "server")).isEqualTo(new ServerExit(137,
				"was killed for using more memory than its limit (container 'server' of pod model-0-abcde, OOMKilled, "
						+ "exit code 137)"));
		ContainerStatus restarted = new ContainerStatusBuilder().withName("server")
			.withRestartCount(1)
			.withNewState()
			.withNewRunning()
			.endRunning()
			.endState()
			.withNewLastState()
			.withNewTerminated()
			.withExitCode(1)
			.withReason("Error")
			.endTerminated()
			.endLastState()
			.build();
		assertThat(PodFailure.of(withContainer(restarted), "server").reason())
			.isEqualTo("was restarted after it exited with code 1 (container 'server' of pod model-0-abcde: Error)");
	}

	@Test
	void aFailedInitContainerAnEvictionAndACompletedPod() {
		Pod init = pod().withNewStatus()
			.addNewInitContainerStatus()
			.withName("migrate")
			.withNewState()
			.withNewTerminated()
			.withExitCode(2)
			.withReason("Error")
			.endTerminated()
			.endState()
			.endInitContainerStatus()
			.endStatus()
			.build();
		assertThat(PodFailure.of(init, "server").reason())
			.isEqualTo("exited with code 2 (init container 'migrate' of pod model-0-abcde: Error)");
		Pod initDone = new PodBuilder(init).editStatus()
			.editFirstInitContainerStatus()
			.editState()
			.editTerminated()
			.withExitCode(0)
			.endTerminated()
			.endState()
			.endInitContainerStatus()
			.endStatus()
			.build();
		assertThat(PodFailure.of(initDone, "server")).isNull();
		Pod evicted = pod().withNewStatus()
			.withPhase("Failed")
			.withReason("Evicted")
			.withMessage("The node was low on resource: memory.")
			.endStatus()
			.build();
		assertThat(PodFailure.of(evicted, "server").reason())
			.isEqualTo("was evicted (pod model-0-abcde: The node was low on resource: memory.)");
		assertThat(PodFailure.of(pod().withNewStatus().withPhase("Succeeded").endStatus().build(), "server"))
			.isEqualTo(new ServerExit(0, "exited with code 0 (pod model-0-abcde completed)"));
	}

	@Test
	void onlyTheServersContainerFailsItButAnyContainerMakesItWait() {
		ContainerStatus sidecar = new ContainerStatusBuilder(waiting("CrashLoopBackOff", "x")).withName("sidecar").build();
		assertThat(PodFailure.of(withContainer(sidecar), "server")).isNull();
		ContainerStatus pulling = new ContainerStatusBuilder(waiting("ImagePullBackOff", "x")).withName("sidecar").build();
		assertThat(PodWaits.current(withContainer(pulling)).who()).isEqualTo("container 'sidecar' of pod model-0-abcde");
	}

	private static PodBuilder pod() {
		return new PodBuilder().withNewMetadata().withName("model-0-abcde").endMetadata();
	}

	private static Pod withContainer(ContainerStatus status) {
		return pod().withNewStatus().withPhase("Pending").addToContainerStatuses(status).endStatus().build();
	}

	private static ContainerStatus waiting(String reason, String message) {
		return new ContainerStatusBuilder().withName("server")
			.withNewState()
			.withNewWaiting()
			.withReason(reason)
			.withMessage(message)
			.endWaiting()
			.endState()
			.build();
	}

}
