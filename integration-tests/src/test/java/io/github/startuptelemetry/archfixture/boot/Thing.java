package io.github.startuptelemetry.archfixture.boot;

/** What the fixture's beans make. */
class Thing {

}
