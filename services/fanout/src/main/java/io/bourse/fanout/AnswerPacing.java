package io.bourse.fanout;

/**
 * The pace of one answer of the dispatcher to a session (a snapshot or a replay, {@link CatchUpRequest}). The session's
 * worker publishes how many bytes of the answer's ITCH messages the session has taken from its ring (sent, or dropped
 * for a symbol no longer wanted) and how many bytes its send buffer still holds for the socket. The dispatcher writes
 * the answer's next message only while the answer bytes in the ring, those in the send buffer and the message itself
 * fit the window, half the session's send buffer. An answer so goes out at the pace its subscriber reads and leaves the
 * send buffer room for the rest of the stream. Before, the worker copied every record of an answer into the send
 * buffer as it read it, so a book larger than the send buffer and the socket's buffer ended a subscriber that read at
 * any pace as a slow consumer, and it met the same book at its next login.
 * <p>
 * A session that ends releases its pace: an answer whose cancel the full request queue refused is then written to its
 * end and dropped by the worker, as before. Written by the session's worker thread, read by the dispatcher's; the
 * two counts are read one after the other, which may mix two of the worker's updates: the next duty cycle reads them
 * again.
 */
final class AnswerPacing
{
    private final int windowBytes;
    private volatile long takenBytes;
    private volatile int unsentBytes;
    private volatile boolean released;

    /**
     * @param windowBytes most answer bytes in the ring and in the send buffer at once: half the session's send buffer.
     */
    AnswerPacing(final int windowBytes)
    {
        this.windowBytes = windowBytes;
    }

    /**
     * The worker: the session took one ITCH message of the answer from the ring.
     *
     * @param messageBytes the message's length.
     * @param unsent       bytes in the session's send buffer that the socket has not taken yet, after it.
     */
    void onTaken(final int messageBytes, final int unsent)
    {
        takenBytes = takenBytes + messageBytes; // one writer
        unsentBytes = unsent;
    }

    /**
     * The worker: the session's socket took bytes of its send buffer.
     *
     * @param unsent bytes in the send buffer that the socket has not taken yet.
     */
    void onSent(final int unsent)
    {
        unsentBytes = unsent;
    }

    /** The worker: the session ended, and reads no more of the answer. */
    void release()
    {
        released = true;
    }

    /**
     * The dispatcher: whether the answer's next ITCH message may go into the ring now.
     *
     * @param writtenBytes the answer's ITCH bytes written to the ring so far.
     * @param messageBytes the next message's length.
     * @return true when it fits the window, or the session has ended.
     */
    boolean canWrite(final long writtenBytes, final int messageBytes)
    {
        return writtenBytes - takenBytes + unsentBytes + messageBytes <= windowBytes || released;
    }
}
