/**
 * Benchmark programs: the matching core against exchange-core, the engine service over Aeron, and the OUCH order round
 * trip through the gateway beside a bare TCP floor.
 */
package io.bourse.bench;
