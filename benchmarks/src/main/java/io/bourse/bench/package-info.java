/** Benchmark programs: Bourse's matching core against exchange-core on exchange-core's own benchmark stream. */
package io.bourse.bench;
