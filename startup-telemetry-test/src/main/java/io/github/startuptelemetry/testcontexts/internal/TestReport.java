package io.github.startuptelemetry.testcontexts.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A test run's contexts: of one JVM as it measured them, or of all the run's JVMs merged (the
 * files hold the merge).
 *
 * @param runId the run's id (the build tool's JVM: the same for all its forks), or {@code null}
 * @param host the host it ran on, or {@code null}
 * @param jvms its test JVMs, in the order they started
 * @param contexts every context created, in the order they started
 */
public record TestReport(@Nullable String runId, @Nullable String host, List<TestJvm> jvms,
		List<TestContextReport> contexts) {

	public TestReport {
		jvms = List.copyOf(jvms);
		contexts = List.copyOf(contexts);
	}

	/**
	 * The run of several JVMs' reports, each context in the order they started; a configuration
	 * another JVM created first is marked so ({@link Why#otherJvm()}): forks share no cache.
	 */
	public static TestReport merge(List<TestReport> parts) {
		List<TestJvm> jvms = new ArrayList<>();
		List<TestContextReport> contexts = new ArrayList<>();
		String runId = null;
		String host = null;
		for (TestReport part : parts) {
			jvms.addAll(part.jvms());
			contexts.addAll(part.contexts());
			runId = (runId != null) ? runId : part.runId();
			host = (host != null) ? host : part.host();
		}
		jvms.sort(Comparator.comparingLong(TestJvm::startNs));
		contexts.sort(Comparator.comparingLong(TestContextReport::startNs));
		Map<String, Long> firstJvm = new HashMap<>();
		List<TestContextReport> marked = new ArrayList<>();
		for (TestContextReport context : contexts) {
			Long first = firstJvm.putIfAbsent(context.name(), context.pid());
			marked.add((first != null && first != context.pid()) ? context.withWhy(context.why().inOtherJvm(first))
					: context);
		}
		return new TestReport(runId, host, jvms, marked);
	}

	/** Every context's startup, summed. */
	public long startupNs() {
		return this.contexts.stream().mapToLong(TestContextReport::startupNs).sum();
	}

	public long startNs() {
		return this.jvms.stream().mapToLong(TestJvm::startNs).min().orElse(0);
	}

	public long endNs() {
		return this.jvms.stream().mapToLong(TestJvm::endNs).max().orElse(0);
	}

	public boolean failed() {
		return this.contexts.stream().anyMatch((context) -> !context.ready());
	}

	/** The contexts beyond each JVM's first. */
	public List<TestContextReport> avoidable() {
		return this.contexts.stream().filter((context) -> !context.why().firstInJvm()).toList();
	}

	/** The context of that number in that JVM, or {@code null}. */
	public @Nullable TestContextReport context(long pid, int number) {
		return this.contexts.stream()
			.filter((context) -> context.pid() == pid && context.number() == number)
			.findFirst()
			.orElse(null);
	}

	/**
	 * Why contexts were new, the costliest first: each difference from the nearest earlier
	 * context (or the close of the same configuration, or another JVM's) with the startup time of
	 * the contexts it made. A JVM's first context is a cause only when another JVM of the run
	 * created it too.
	 */
	public List<Cause> causes() {
		Map<String, List<TestContextReport>> byCause = new LinkedHashMap<>();
		for (TestContextReport context : this.contexts) {
			if (context.why().firstInJvm() && context.why().otherJvm() == null) {
				continue;
			}
			for (String cause : causesOf(context)) {
				byCause.computeIfAbsent(cause, (key) -> new ArrayList<>()).add(context);
			}
		}
		List<Cause> causes = new ArrayList<>();
		byCause.forEach((cause, contexts) -> causes.add(new Cause(cause,
				contexts.stream().map(TestContextReport::name).distinct().toList(),
				contexts.stream().mapToLong(TestContextReport::startupNs).sum())));
		causes.sort(Comparator.comparingLong(Cause::startupNs).reversed());
		return causes;
	}

	private List<String> causesOf(TestContextReport context) {
		Why why = context.why();
		if (why.otherJvm() != null) {
			return List.of("created in another test JVM too (forks share no context cache)");
		}
		if (why.sameAs() != null) {
			TestContextReport earlier = context(context.pid(), why.sameAs());
			String closedBy = (earlier != null) ? earlier.closedBy() : null;
			return List.of((closedBy != null) ? "created again after " + closedBy
					: "created again after the same configuration failed to start");
		}
		return why.differences().stream().map(Difference::text).toList();
	}

	/** The slowest beans across contexts, at most {@code limit}. */
	public List<SlowBean> slowestBeans(int limit) {
		List<SlowBean> beans = new ArrayList<>();
		for (TestContextReport context : this.contexts) {
			collect(context.timeline().steps(), context, beans);
		}
		beans.sort(Comparator.comparingLong(SlowBean::durationNs).reversed());
		return List.copyOf(beans.subList(0, Math.min(limit, beans.size())));
	}

	private static void collect(List<StepTiming> steps, TestContextReport context, List<SlowBean> into) {
		for (StepTiming step : steps) {
			if (step.beanName() != null) {
				into.add(new SlowBean(step.beanName(), step.beanType(), context.name(), context.reference(false),
						step.durationNs()));
			}
			collect(step.children(), context, into);
		}
	}

	/** This JVM's entry with its run's trace. */
	public TestReport withTraceId(long pid, @Nullable String traceId) {
		return new TestReport(this.runId, this.host,
				this.jvms.stream().map((jvm) -> (jvm.pid() == pid) ? jvm.withTraceId(traceId) : jvm).toList(),
				this.contexts);
	}

	/**
	 * One reason contexts were new.
	 *
	 * @param text what differed ({@code bean overrides: + @MockitoBean GreetingService (field greeting)})
	 * @param contexts the contexts it made, by name
	 * @param startupNs their startup time
	 */
	public record Cause(String text, List<String> contexts, long startupNs) {

		public Cause {
			contexts = List.copyOf(contexts);
		}

	}

	/**
	 * A slow bean of a context.
	 *
	 * @param bean its name
	 * @param type its type, or {@code null}
	 * @param context its context's name
	 * @param reference its context's number ({@code #2})
	 * @param durationNs how long it took
	 */
	public record SlowBean(String bean, @Nullable String type, String context, String reference, long durationNs) {

	}

}
