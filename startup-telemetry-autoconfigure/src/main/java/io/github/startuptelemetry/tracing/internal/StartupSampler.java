package io.github.startuptelemetry.tracing.internal;

import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

import io.github.startuptelemetry.contract.SpanNames;

/**
 * Samples every startup span and leaves every other decision to the application's sampler: a
 * startup happens once per process, and at Boot's default probability of 0.1 nine in ten would
 * vanish.
 */
public final class StartupSampler implements Sampler {

	private final Sampler delegate;

	private StartupSampler(Sampler delegate) {
		this.delegate = delegate;
	}

	/** {@code sampler}, except that startup spans are always sampled. */
	public static Sampler wrap(Sampler sampler) {
		return (sampler instanceof StartupSampler) ? sampler : new StartupSampler(sampler);
	}

	@Override
	public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
			Attributes attributes, List<LinkData> parentLinks) {
		if (SpanNames.isStartupSpan(name)) {
			return SamplingResult.recordAndSample();
		}
		return this.delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
	}

	@Override
	public String getDescription() {
		return "StartupSampler{" + this.delegate.getDescription() + "}";
	}

}
