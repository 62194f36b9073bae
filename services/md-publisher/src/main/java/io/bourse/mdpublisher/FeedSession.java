package io.bourse.mdpublisher;

import io.bourse.common.time.SessionNames;

import java.nio.ByteBuffer;

/**
 * One MoldUDP64 session of the feed (MoldUDP64 Protocol Specification 1.00: the Session names the messages that its
 * Sequence Numbers number, from 1): its name, the server that numbers its Downstream Packets on the feed's
 * multicast socket, and the store of its messages that answers the Request Packets naming it. Closing it closes the
 * store (its file deleted, its memory freed), not the socket, which the sessions of one run share.
 */
final class FeedSession implements AutoCloseable
{
    /** The Session, 1 to {@value SessionNames#MAX_LENGTH} printable ASCII characters. */
    final String name;
    /** Sends the session's Downstream Packets, Heartbeats and End of Session packets, from Sequence Number 1. */
    final MoldSessionServer server;
    /** Every message of the session, numbered from 1. */
    final MoldMessageStore store;

    /**
     * @param name   the Session ({@link SessionNames}).
     * @param server sends on the feed's multicast socket under that Session, from Sequence Number 1.
     * @param store  empty; closed with the session.
     */
    FeedSession(final String name, final MoldSessionServer server, final MoldMessageStore store)
    {
        this.name = name;
        this.server = server;
        this.store = store;
    }

    /**
     * @param packet a MoldUDP64 packet or response, the Session in its first {@value SessionNames#MAX_LENGTH} bytes.
     * @return whether the packet names this session.
     */
    boolean isNamedIn(final ByteBuffer packet)
    {
        return server.isNamedIn(packet);
    }

    /** Closes the store, which deletes its file and frees its memory; the session answers nothing after. */
    @Override
    public void close()
    {
        store.close();
    }

    /**
     * Opens the sessions of a run, one at a time, on the feed's sockets: the first on the thread that opens the feed,
     * the next days' on the sessions' thread ({@link FeedSessions}).
     */
    @FunctionalInterface
    interface Factory
    {
        /**
         * @param name the new session's name ({@link SessionNames}).
         * @return the session, with an empty store (and session file when configured).
         */
        FeedSession open(String name);
    }
}
