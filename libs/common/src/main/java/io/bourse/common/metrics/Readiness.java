package io.bourse.common.metrics;

/**
 * Whether a service can do its work now, as its metrics endpoint's {@code GET /ready} reports it (HTTP 200, or 503
 * with the reason): e.g. the order gateway is ready once every engine shard has subscribed to its command stream, so
 * that an order is not Rejected for an engine that is not there. Called on the metrics server's thread, so it may only
 * read state that other threads publish safely (Aeron's {@code isConnected()}, volatile fields).
 */
@FunctionalInterface
public interface Readiness
{
    /** Ready. */
    Readiness READY = () -> null;

    /**
     * @return null when ready, else why not: one line of text for the 503 answer, e.g. "no subscriber on aeron:ipc
     * stream 1001 (matching-engine shard 1)".
     */
    String notReadyReason();
}
