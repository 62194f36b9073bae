/**
 * The matching core: per-symbol limit order books with price-time priority, free of I/O, Aeron and SBE, so that the
 * engine service, replay tools, benchmarks and tests all drive the same code through {@link
 * io.bourse.engine.match.MatchingEngine} and observe it through {@link io.bourse.engine.match.MatchingEngineListener}.
 */
package io.bourse.engine.match;
