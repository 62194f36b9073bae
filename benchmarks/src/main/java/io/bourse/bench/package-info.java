/**
 * Benchmark programs: the matching core against exchange-core, the engine service over Aeron, the OUCH order round
 * trip through the gateway beside a bare TCP floor, and the ITCH fan-out from one market-data stream to many
 * subscribers.
 */
package io.bourse.bench;
