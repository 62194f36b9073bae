/** Prometheus {@code /metrics} endpoints: counters, HdrHistogram latency quantiles and Aeron counters. */
package io.bourse.common.metrics;
