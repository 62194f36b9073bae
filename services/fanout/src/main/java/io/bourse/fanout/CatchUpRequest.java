package io.bourse.fanout;

/**
 * What a worker asks of the dispatcher for one session: at login, the book or a replay, then live messages; after a
 * change of subscription, the book of the symbols added. The dispatcher answers in the worker's ring buffer, at an
 * exact position of the stream ({@link DispatcherAgent}).
 *
 * @param workerId          the worker whose ring buffer takes the answer.
 * @param sessionId         the session, unique within its worker.
 * @param login             true at login: the answer starts with the sequence number for Login Accepted.
 * @param requestedSequence SoupBinTCP 4.0 Login Request Requested Sequence Number; 0 when not a login.
 * @param symbolsByLocate   true at the Stock Locate of each symbol wanted; index 0 unused.
 */
record CatchUpRequest(
    int workerId, long sessionId, boolean login, long requestedSequence, boolean[] symbolsByLocate)
{
}
