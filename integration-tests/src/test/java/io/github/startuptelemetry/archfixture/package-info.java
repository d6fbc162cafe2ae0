/**
 * Deliberate violations of every architecture rule, for {@code ArchitectureRulesTest}: a cycle
 * between {@code a} and {@code b}, a dependency the table does not allow, a public condition, an
 * API type that exposes an internal one. Never imported by {@code ArchitectureTest}.
 */
package io.github.startuptelemetry.archfixture;
