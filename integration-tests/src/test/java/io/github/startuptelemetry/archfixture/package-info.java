/**
 * Deliberate violations of every architecture rule, for {@code ArchitectureRulesTest}: a cycle
 * between {@code a} and {@code b} (packages and classes), class cycles in {@code cycle}, a
 * dependency the map does not allow, a public condition, an API type that exposes an internal
 * one, an import only Javadoc uses ({@code javadoc}), packages without {@code @NullMarked}, and
 * what Spring Boot's rules forbid ({@code boot}), each beside a twin that keeps the rule. Never
 * imported by {@code ArchitectureTest}.
 */
package io.github.startuptelemetry.archfixture;
