/**
 * Every name that crosses a process boundary, for all three modules: the env contract,
 * span, attribute, metric, stage and JSON field names. Other programs match on these strings,
 * so they are added to, never renamed. JDK only.
 */
@NullMarked
package io.github.startuptelemetry.contract;

import org.jspecify.annotations.NullMarked;
