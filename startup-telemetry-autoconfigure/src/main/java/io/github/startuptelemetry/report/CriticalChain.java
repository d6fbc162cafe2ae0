package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.startuptelemetry.contract.DependencyConditions;
import io.github.startuptelemetry.report.ServerReport.DependsOn;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The servers that set "all ready" in a fleet with {@code depends-on}, like
 * {@code systemd-analyze critical-chain}: the server ready last, the dependency that released
 * it, and so on back to one that waited for nothing (docs/fleets.md, the critical chain).
 *
 * @param allReadyAfterNs from the supervisor's start to all ready
 * @param links from the first server spawned to the one that was ready last
 */
public record CriticalChain(long allReadyAfterNs, List<Link> links) {

	public CriticalChain {
		links = List.copyOf(links);
	}

	/**
	 * The chain of a ready startup of a fleet with dependencies; empty for any other.
	 * @param report the startup
	 * @return its critical chain
	 */
	public static Optional<CriticalChain> of(StartupReport report) {
		if (!report.ready() || report.servers().stream().noneMatch((server) -> server.waiting().isPresent())) {
			return Optional.empty();
		}
		Map<String, ServerReport> byName = report.servers()
			.stream()
			.collect(Collectors.toMap(ServerReport::name, Function.identity(), (a, b) -> a));
		ServerReport last = report.servers().stream().max(Comparator.comparingLong(ServerReport::endNs)).orElse(null);
		if (last == null) {
			return Optional.empty();
		}
		List<Link> links = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		ServerReport current = last;
		String condition = last.oneShot() ? DependencyConditions.COMPLETED : DependencyConditions.READY;
		while (current != null && seen.add(current.name())) {
			Optional<DependsOn> waitedFor = current.waiting()
				.flatMap((wait) -> (wait.releasedBy() != null) ? wait.on(wait.releasedBy()) : Optional.empty());
			long metNs = DependencyConditions.STARTED.equals(condition) ? current.spawnNs() : current.endNs();
			links.add(0, new Link(current, condition, metNs - report.startNs(), waitedFor));
			ServerReport released = current.waiting()
				.map(ServerReport.Waiting::releasedBy)
				.map(byName::get)
				.orElse(null);
			condition = waitedFor.map(DependsOn::condition).orElse(DependencyConditions.READY);
			current = released;
		}
		return Optional.of(new CriticalChain(report.durationNs(), links));
	}

	/**
	 * One server of the chain.
	 *
	 * @param server the server
	 * @param condition what of it the next link waited for ({@code ready}, {@code started},
	 * {@code completed}); for the last link, {@code ready} (a one-shot job: {@code completed})
	 * @param metAfterNs when it met that condition, from the supervisor's start ({@code @})
	 * @param waitedFor the entry of its {@code depends-on} whose condition was met last, which
	 * released it; empty for the first link
	 */
	public record Link(ServerReport server, String condition, long metAfterNs, Optional<DependsOn> waitedFor) {

		/** How long it waited before it was spawned; 0 for a server that waited for nothing. */
		public long waitedNs() {
			return this.server.waitedNs();
		}

		/** Its longest stage, if it reported any. */
		public Optional<Stage> slowestStage() {
			return this.server.slowestStage();
		}

	}

}
