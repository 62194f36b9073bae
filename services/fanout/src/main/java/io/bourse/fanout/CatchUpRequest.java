package io.bourse.fanout;

/**
 * What a worker asks of the dispatcher for one session: at login, the book or a replay, then live messages; after a
 * change of subscription, the book of the symbols added. The dispatcher answers in the worker's ring buffer, at an
 * exact position of the stream ({@link DispatcherAgent}). A session that ends while it awaits an answer sends a
 * {@link #cancel}, so that the dispatcher stops writing what no one will read.
 *
 * @param workerId          the worker whose ring buffer takes the answer.
 * @param sessionId         the session, unique within its worker.
 * @param day               the ordinal of the trading day the session logged in on ({@link SessionNames.Day}): a
 *                          request of an ended day is not answered, its session ends with its day; 0 and unread for
 *                          a {@link #cancel}.
 * @param login             true at login: the answer starts with the sequence number for Login Accepted.
 * @param named             true when the Login Request named the day's numbered stream, SoupBinTCP 4.0 Requested
 *                          Session not blank: answered from that stream, or Login Rejected 'S', never with a snapshot
 *                          session (from message 1 of the stream, which carries no book: the orders resting
 *                          before it come only in a snapshot session's); false for a blank name, whose login the
 *                          dispatcher may answer either way.
 * @param requestedSequence SoupBinTCP 4.0 Login Request Requested Sequence Number; 0 when not a login.
 * @param symbolsByLocate   true at the Stock Locate of each symbol wanted; index 0 unused; null for a {@link #cancel}.
 * @param pacing            the pace the session takes the answer at; null for a {@link #cancel}.
 */
record CatchUpRequest(
    int workerId, long sessionId, long day, boolean login, boolean named, long requestedSequence,
    boolean[] symbolsByLocate, AnswerPacing pacing)
{
    /**
     * @param workerId  the session's worker.
     * @param sessionId the session, which has ended: the answer it awaited, under way or not yet begun, is dropped.
     * @return the request.
     */
    static CatchUpRequest cancel(final int workerId, final long sessionId)
    {
        return new CatchUpRequest(workerId, sessionId, 0, false, false, 0, null, null);
    }

    /** @return true for a {@link #cancel}. */
    boolean isCancel()
    {
        return null == symbolsByLocate;
    }
}
