/**
 * Replays exchange-core's benchmark command stream through Bourse's matching core, for the correctness comparison
 * and the benchmark of issue 3.
 */
package io.bourse.engine.replay;
