package io.github.startuptelemetry.export.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.MeterProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanNames;

/**
 * NeMo Gym's two startup histograms ({@link MetricNames}), recorded on the process's Micrometer
 * registry when it has one and on an OpenTelemetry meter when nothing else carries them to an
 * OTLP collector, so that the wire carries each once. Micrometer's classes are only touched when
 * it is on the class path.
 */
public final class StartupHistograms {

	private static final String MICROMETER = "io.micrometer.core.instrument.MeterRegistry";

	private static final List<Double> BOUNDARIES = boundaries();

	private final Supplier<@Nullable Object> registries;

	private final Supplier<@Nullable MeterProvider> meterProviders;

	private final Map<String, DoubleHistogram> instruments = new ConcurrentHashMap<>();

	private volatile boolean lookedUp;

	private volatile @Nullable Object registry;

	private volatile @Nullable MeterProvider meters;

	/** The histograms of a process: its registry and meters, as its export finds them. */
	public StartupHistograms(StartupExport export) {
		this(() -> ClassUtils.isPresent(MICROMETER, StartupHistograms.class.getClassLoader())
				? Micrometer.registry(export) : null, export::meters);
	}

	/**
	 * Histograms on what these suppliers give, each asked once, at the first value.
	 * @param registries a Micrometer {@code MeterRegistry}, or {@code null} for none
	 * @param meterProviders OpenTelemetry meters, or {@code null} for none
	 */
	public StartupHistograms(Supplier<@Nullable Object> registries, Supplier<@Nullable MeterProvider> meterProviders) {
		this.registries = registries;
		this.meterProviders = meterProviders;
	}

	/**
	 * Record one value.
	 * @param metric the histogram's name ({@link MetricNames})
	 * @param description its description
	 * @param attributes its attributes, typed as on the OTLP wire (Micrometer gets them as text)
	 * @param valueMs the value, in milliseconds
	 */
	public void record(String metric, String description, Attributes attributes, double valueMs) {
		lookUp();
		Object registry = this.registry;
		if (registry != null) {
			Micrometer.record(registry, metric, description, attributes, valueMs);
		}
		MeterProvider meters = this.meters;
		if (meters != null) {
			this.instruments.computeIfAbsent(metric, (name) -> meters.get(SpanNames.SCOPE)
				.histogramBuilder(name)
				.setDescription(description)
				.setUnit(MetricNames.UNIT)
				.setExplicitBucketBoundariesAdvice(BOUNDARIES)
				.build()).record(valueMs, attributes);
		}
	}

	/** Whether anything records (a registry, or meters with somewhere to go). */
	public boolean recording() {
		lookUp();
		return this.registry != null || this.meters != null;
	}

	/** Once: the process's registry and meters are what they are by the time the first value comes. */
	private void lookUp() {
		if (this.lookedUp) {
			return;
		}
		synchronized (this) {
			if (!this.lookedUp) {
				this.registry = this.registries.get();
				this.meters = this.meterProviders.get();
				this.lookedUp = true;
			}
		}
	}

	private static List<Double> boundaries() {
		List<Double> boundaries = new ArrayList<>();
		for (double boundary : MetricNames.BOUNDARIES_MS) {
			boundaries.add(boundary);
		}
		return List.copyOf(boundaries);
	}

	/** Isolates Micrometer, which a plain application does not have. */
	private static final class Micrometer {

		static @Nullable Object registry(StartupExport export) {
			return export.beanFactory().getBeanProvider(MeterRegistry.class).getIfAvailable();
		}

		static void record(Object registry, String metric, String description, Attributes attributes, double valueMs) {
			List<Tag> tags = new ArrayList<>();
			attributes.forEach((key, value) -> tags.add(Tag.of(key.getKey(), String.valueOf(value))));
			DistributionSummary.builder(metric)
				.description(description)
				.baseUnit(MetricNames.UNIT)
				.tags(tags)
				.publishPercentileHistogram(false)
				.serviceLevelObjectives(MetricNames.BOUNDARIES_MS)
				.register((MeterRegistry) registry)
				.record(valueMs);
		}

	}

}
