package io.github.startuptelemetry.launch.kubernetes;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link KubernetesLauncherLog}: the launcher's classes log under the category users already configure. */
class KubernetesLauncherLogTest {

	@Test
	void theCategoryIsTheLaunchersClassName() {
		assertThat(KubernetesLauncherLog.CATEGORY).isEqualTo(KubernetesServerLauncher.class.getName());
	}

}
