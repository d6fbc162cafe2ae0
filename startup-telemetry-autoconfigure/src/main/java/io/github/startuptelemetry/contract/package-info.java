/**
 * Every name that crosses a process boundary, in one place: the env contract between a
 * supervisor and its servers, span names, span attribute keys, metric names and tags, stage
 * names and outcomes, and the timeline JSON. Other programs (NeMo Gym's Python supervisor and
 * servers, collector rules, dashboards) match on these exact strings, so they may be added to
 * but never renamed. Framework-free: the JDK only.
 */
package io.github.startuptelemetry.contract;
