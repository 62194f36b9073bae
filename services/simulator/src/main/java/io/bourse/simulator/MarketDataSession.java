package io.bourse.simulator;

import java.io.IOException;

/**
 * One market-data session as the {@link MarketDataAgent} drives it: over SoupBinTCP ({@link SoupClient}) or MoldUDP64
 * ({@link MoldSession}), each delivering its ITCH 5.0 messages to its own {@link MarketDataAdapter}.
 */
interface MarketDataSession extends AutoCloseable
{
    /**
     * Reads what has arrived and delivers every complete message; called on the market-data thread.
     *
     * @return work done (bytes or packets read), 0 when nothing arrived.
     * @throws IOException when the session fails; it is then no longer {@link #isActive() active}.
     */
    int poll() throws IOException;

    /**
     * {@link #poll()}, running {@code beforeRead} before each socket read, so that the receive time it stamps is
     * never later than the arrival of what the read delivers: once, for a session that reads once per poll.
     *
     * @param beforeRead stamps the receive time of the messages the next read delivers.
     * @return work done (bytes or packets read), 0 when nothing arrived.
     * @throws IOException when the session fails; it is then no longer {@link #isActive() active}.
     */
    default int poll(final Runnable beforeRead) throws IOException
    {
        beforeRead.run();
        return poll();
    }

    /** @return true while the session can still receive. */
    boolean isActive();

    /** @return name for messages. */
    String name();

    /** Closes the session without waiting for the peer: safe from another thread. */
    void abort();

    /**
     * Ends the session politely where the protocol has a way to, then releases its sockets.
     *
     * @throws IOException when the sockets fail to close.
     */
    @Override
    void close() throws IOException;
}
