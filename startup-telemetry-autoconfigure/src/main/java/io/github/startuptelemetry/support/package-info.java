/**
 * Small framework-free helpers shared by the starter's packages. Not API: public only because
 * Java has no narrower visibility across packages.
 */
package io.github.startuptelemetry.support;
