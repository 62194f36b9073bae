/** Plumbing shared by every Bourse service: configuration, symbols, clocks, credentials, Aeron wiring, metrics. */
package io.bourse.common;
