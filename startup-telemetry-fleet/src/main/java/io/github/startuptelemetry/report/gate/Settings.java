package io.github.startuptelemetry.report.gate;

import java.util.Map;
import java.util.Objects;

import io.github.startuptelemetry.contract.StageNames;

/**
 * How the regression gate judges: the thresholds, the spread multiplier and whether the
 * machine's load is taken out.
 *
 * @param threshold the threshold of every unit without its own
 * @param perStage thresholds of their own, by stage name; a phase, step or bean takes
 * {@code beans_instantiated}'s
 * @param spreadMultiplier how many of its baseline spreads a unit may move (0: the spread
 * is not used)
 * @param speedCorrection whether the machine's load is taken out (off: times are judged as
 * measured, for a dedicated quiet runner)
 */
public record Settings(RegressionThreshold threshold, Map<String, RegressionThreshold> perStage,
		double spreadMultiplier, boolean speedCorrection) {

	/** 25%, 200 ms, 3 spreads, the speed factor on. */
	public static final Settings DEFAULT = new Settings(RegressionThreshold.DEFAULT, Map.of(), 3, true);

	public Settings {
		Objects.requireNonNull(threshold, "threshold");
		perStage = Map.copyOf(perStage);
		if (!(spreadMultiplier >= 0) || Double.isInfinite(spreadMultiplier)) {
			throw new IllegalArgumentException(
					"The spread multiplier must be a number of at least 0, not " + spreadMultiplier);
		}
	}

	RegressionThreshold thresholdOf(Change.Kind kind, String name) {
		String stage = switch (kind) {
			case STAGE -> name;
			case PHASE, STEP, BEAN -> StageNames.BEANS_INSTANTIATED;
			default -> null;
		};
		return (stage != null) ? this.perStage.getOrDefault(stage, this.threshold) : this.threshold;
	}

}
