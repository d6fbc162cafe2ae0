package io.github.startuptelemetry.launch.kubernetes;

import java.util.List;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.kubernetes.internal.KubernetesFixtures;
import io.github.startuptelemetry.launch.LaunchedServer.ServerExit;

/**
 * Pods real clusters produced (k8s-fixtures, each with its source) read for what ends a server's
 * startup: what the scheduler and the kubelet retry is a wait, not a failure; what ends a pod is
 * said as what it is.
 */
class RealPodsTest {

	@Test
	void anUnschedulablePodWaitsForTheSchedulerAndTheAutoscaler() {
		for (String fixture : List.of("a-unschedulable-pod.json", "a-unschedulable-pod-qovery-eks.json",
				"a-unschedulable-pod-openshift.json")) {
			Pod pod = KubernetesFixtures.pod(fixture);
			assertThat(PodFailure.of(pod, pod.getSpec().getContainers().get(0).getName())).as(fixture).isNull();
		}
	}

	@Test
	void anImagePullErrorAndAContainerConfigErrorAreRetriedByTheKubelet() {
		Pod pull = KubernetesFixtures.pod("b-errimagepull-pod.json");
		assertThat(PodFailure.of(pull, "demo-deployment-container")).isNull();
		Pod config = new PodBuilder().withNewMetadata().withName("nginx-deployment-57d8568bbb-8mvkc").endMetadata()
			.withNewStatus().withPhase("Pending")
			.withContainerStatuses(KubernetesFixtures.containerStatuses("c-createcontainerconfigerror-containerStatuses.json"))
			.endStatus().build();
		assertThat(PodFailure.of(config, "nginx")).isNull();
	}

	@Test
	void anEvictedPodWasEvictedWithTheKubeletsWords() {
		ServerExit exit = PodFailure.of(KubernetesFixtures.pod("d-evicted-pod.json"), "app-z064fc389");
		assertThat(exit.code()).isEqualTo(-1);
		assertThat(exit.reason()).isEqualTo("was evicted (pod app-z064fc389-55c7689767-9bchb: The node was low on "
				+ "resource: ephemeral-storage. Container app-z064fc389 was using 56Ki, which exceeds its request of 0.)");
	}

	@Test
	void anOomKilledContainerRanOutOfMemory() {
		ServerExit exit = PodFailure.of(KubernetesFixtures.pod("x-oomkilled-pod.json"), "memory-eater");
		assertThat(exit).isEqualTo(new ServerExit(137, "was killed for using more memory than its limit (container "
				+ "'memory-eater' of pod oom-kill-job3-gbb89, OOMKilled, exit code 137)"));
	}

	@Test
	void anInitContainerThatCannotRunEndsThePod() {
		ServerExit exit = PodFailure.of(KubernetesFixtures.pod("x-init-runcontainererror-pod.json"), "nginx");
		assertThat(exit.reason()).startsWith("could not start its container (init container 'install' of pod init-demo2, "
				+ "RunContainerError: failed to start container");
	}

	@Test
	void aDisruptedPodSaysWhatDisruptedItNotJustItsExitCode() {
		Pod preempted = new PodBuilder().withNewMetadata().withName("model-0-abcde").endMetadata()
			.withNewStatus()
			.withPhase("Failed")
			.addNewCondition()
			.withType("DisruptionTarget")
			.withStatus("True")
			.withReason("PreemptionByScheduler")
			.withMessage("default-scheduler: preempting to accommodate a higher priority pod")
			.endCondition()
			.addNewContainerStatus()
			.withName("server")
			.withNewState()
			.withNewTerminated()
			.withExitCode(143)
			.withReason("Error")
			.endTerminated()
			.endState()
			.endContainerStatus()
			.endStatus()
			.build();
		assertThat(PodFailure.of(preempted, "server")).isEqualTo(new ServerExit(143,
				"was preempted (pod model-0-abcde, DisruptionTarget PreemptionByScheduler: default-scheduler: preempting "
						+ "to accommodate a higher priority pod; its container exited with code 143)"));
	}

	@Test
	void startErrorIsATerminatedReasonNotAWaitingOne() {
		Pod waiting = new PodBuilder().withNewMetadata().withName("model-0-abcde").endMetadata()
			.withNewStatus().withPhase("Pending")
			.addNewContainerStatus().withName("server").withNewState().withNewWaiting().withReason("StartError")
			.endWaiting().endState().endContainerStatus()
			.endStatus().build();
		assertThat(PodFailure.of(waiting, "server")).as("no such waiting reason: the kubelet's next word decides")
			.isNull();
		Pod terminated = new PodBuilder().withNewMetadata().withName("model-0-abcde").endMetadata()
			.withNewStatus().withPhase("Failed")
			.addNewContainerStatus().withName("server").withNewState().withNewTerminated().withExitCode(128)
			.withReason("StartError").withMessage("exec: \"java\": executable file not found in $PATH")
			.endTerminated().endState().endContainerStatus()
			.endStatus().build();
		assertThat(PodFailure.of(terminated, "server")).isEqualTo(new ServerExit(128, "could not start its container "
				+ "(container 'server' of pod model-0-abcde, StartError: exec: \"java\": executable file not found in "
				+ "$PATH, exit code 128)"));
	}

}
