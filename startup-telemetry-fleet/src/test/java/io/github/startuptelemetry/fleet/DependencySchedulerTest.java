package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.github.startuptelemetry.fleet.DependencyScheduler.Release;
import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

import static org.assertj.core.api.Assertions.assertThat;

/** Which waiting servers each event releases, and what held one that was never released. */
class DependencySchedulerTest {

	@Test
	void serversThatWaitForNothingAreSpawnedAtOnceTheOthersWait() {
		DependencyScheduler schedule = new DependencyScheduler(List.of(plan("config"), plan("model", ready("config")),
				plan("metrics")));

		assertThat(schedule.any()).isTrue();
		assertThat(schedule.independent()).extracting(ServerPlan::name).containsExactly("config", "metrics");
		assertThat(schedule.dependants()).extracting(ServerPlan::name).containsExactly("model");
		assertThat(new DependencyScheduler(List.of(plan("a"), plan("b"))).any()).isFalse();
	}

	@Test
	void aServerIsReleasedOnceAllItsDependenciesMeetTheirConditionsAndSaysWhichWasLast() {
		DependencyScheduler schedule = new DependencyScheduler(List.of(plan("config"), plan("cache"),
				plan("model", ready("config"), started("cache"))));

		assertThat(schedule.started("config")).as("started is not ready").isEmpty();
		assertThat(schedule.ready("config")).isEmpty();
		assertThat(schedule.isWaiting("model")).isTrue();
		List<Release> released = schedule.started("cache");

		assertThat(released).singleElement().satisfies((release) -> {
			assertThat(release.server().name()).isEqualTo("model");
			assertThat(release.by().name()).isEqualTo("cache");
			assertThat(release.byServer()).isEqualTo("cache");
		});
		assertThat(schedule.isWaiting("model")).isFalse();
		assertThat(schedule.ready("cache")).as("released once").isEmpty();
	}

	@Test
	void aGroupOfReplicasIsReadyWhenAllOfItAreAndTheLastReplicaReleases() {
		DependencyScheduler schedule = new DependencyScheduler(List.of(plan("model-0"), plan("model-1"),
				plan("gateway", new Dependency("model", DependencyCondition.READY, List.of("model-0", "model-1")))));

		assertThat(schedule.ready("model-1")).isEmpty();
		assertThat(schedule.blockedBy("gateway").server()).isEqualTo("model-0");
		assertThat(schedule.ready("model-0")).singleElement()
			.satisfies((release) -> assertThat(release.byServer()).isEqualTo("model-0"));
	}

	@Test
	void aReadyServerHasStartedAndAOneShotJobsExitZeroIsItsCompletion() {
		ServerPlan migrate = new ServerPlan("migrate", "migrate", 0, 1, 1, List.of("x"), null, null, Map.of(),
				URI.create("http://127.0.0.1:1/"), URI.create("http://127.0.0.1:1/t"), "local", List.of(), true, null);
		DependencyScheduler schedule = new DependencyScheduler(List.of(migrate, plan("config"),
				plan("app", new Dependency("migrate", DependencyCondition.COMPLETED, List.of("migrate"))),
				plan("sidecar", started("config"))));

		assertThat(schedule.started("migrate")).as("a job that started has not completed").isEmpty();
		assertThat(schedule.ready("migrate")).extracting((release) -> release.server().name()).containsExactly("app");
		assertThat(schedule.ready("config")).as("ready before its start was heard of still meets started")
			.extracting((release) -> release.server().name())
			.containsExactly("sidecar");
		assertThat(schedule.started("config")).isEmpty();
	}

	@Test
	void releasesRunDownAChainOneEventAtATime() {
		DependencyScheduler schedule = new DependencyScheduler(
				List.of(plan("a"), plan("b", ready("a")), plan("c", ready("b")), plan("d", ready("b"), ready("a"))));

		assertThat(schedule.ready("a")).extracting((release) -> release.server().name()).containsExactly("b");
		assertThat(schedule.ready("b")).extracting((release) -> release.server().name()).containsExactly("c", "d");
	}

	@Test
	void aServerStillWaitingWasHeldByItsFirstUnmetDependencyInDeclaredOrder() {
		DependencyScheduler schedule = new DependencyScheduler(
				List.of(plan("a"), plan("b"), plan("c", ready("a"), ready("b")), plan("d", ready("c"))));
		schedule.started("a");
		schedule.ready("a");

		assertThat(schedule.blockedBy("c")).satisfies((blocked) -> {
			assertThat(blocked.server()).isEqualTo("b");
			assertThat(blocked.on().name()).isEqualTo("b");
			assertThat(blocked.unspawned()).isTrue();
		});
		schedule.started("b");
		assertThat(schedule.blockedBy("c").unspawned()).isFalse();
		assertThat(schedule.blockedBy("d").server()).isEqualTo("c");
		assertThat(schedule.blockedBy("a")).as("waits for nothing").isNull();
	}

	@Test
	void aGroupOfAThousandWaitingForAGroupOfAThousandIsReleasedWholeByTheLastReplicaInPlanOrder() {
		int size = 1000;
		List<String> models = IntStream.range(0, size).mapToObj((i) -> "model-" + i).toList();
		Dependency onModels = new Dependency("model", DependencyCondition.READY, models);
		List<ServerPlan> plan = new ArrayList<>();
		models.forEach((name) -> plan.add(plan(name)));
		IntStream.range(0, size).forEach((i) -> plan.add(plan("gateway-" + i, onModels, started("cache"))));
		plan.add(plan("cache"));
		DependencyScheduler schedule = new DependencyScheduler(plan);
		schedule.started("cache");

		for (int i = size - 1; i > 0; i--) {
			assertThat(schedule.ready("model-" + i)).isEmpty();
		}
		assertThat(schedule.blockedBy("gateway-7").server()).isEqualTo("model-0");
		List<Release> released = schedule.ready("model-0");

		assertThat(released).hasSize(size)
			.allSatisfy((release) -> assertThat(release.byServer()).isEqualTo("model-0"))
			.allSatisfy((release) -> assertThat(release.by()).isSameAs(release.server().dependsOn().get(0)));
		assertThat(released).extracting((release) -> release.server().name())
			.containsExactlyElementsOf(IntStream.range(0, size).mapToObj((i) -> "gateway-" + i).toList());
		assertThat(schedule.isWaiting("gateway-999")).isFalse();
		assertThat(schedule.ready("model-0")).as("released once").isEmpty();
	}

	private static Dependency ready(String name) {
		return new Dependency(name, DependencyCondition.READY, List.of(name));
	}

	private static Dependency started(String name) {
		return new Dependency(name, DependencyCondition.STARTED, List.of(name));
	}

	static ServerPlan plan(String name, Dependency... dependsOn) {
		return new ServerPlan(name, name, 0, 1, 1, List.of("x"), null, null, Map.of(), URI.create("http://127.0.0.1:1/"),
				URI.create("http://127.0.0.1:1/t"), "local", List.of(dependsOn), false, null);
	}

}
