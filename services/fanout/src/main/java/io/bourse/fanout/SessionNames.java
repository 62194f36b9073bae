package io.bourse.fanout;

import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SoupBinTCP 4.0 session names a fanout run gives in Login Accepted, so that a subscriber resumes only the stream
 * whose sequence numbers it holds:
 * <ul>
 *   <li>A replay login (a Requested Sequence Number still in the replay history) joins the run's numbered stream, all
 *   symbols, named after the run's start ({@link io.bourse.common.time.SessionNames#runStart}, UTC
 *   {@value io.bourse.common.time.SessionNames#RUN_START_FORMAT}): a subscriber that did not narrow its symbols can
 *   log in again with that name and its next sequence number.</li>
 *   <li>A snapshot login gets a stream of its own, numbered from 1 (the opening messages, the book, then the live
 *   messages of its symbols), which no later login can resume: named {@code S} and 9 digits, a new one for every
 *   snapshot login of the run.</li>
 * </ul>
 * A Login Request naming any other session, a snapshot session or an earlier run's, is rejected 'S' (session not
 * available), as SoupBinTCP 4.0 has it, instead of being given another stream's messages under its numbers. A blank
 * requested session means the run's: a snapshot subscriber that logs in again with a blank name and its own next
 * number gets the run's stream from that number, which is not where it stood; a subscriber resumes by the name Login
 * Accepted gave it. Any thread.
 */
final class SessionNames
{
    private final String runSession;
    private final AtomicLong snapshotSessions = new AtomicLong();

    /**
     * @param runSession the name of the run's numbered stream, 1..10 characters, no spaces, not starting with
     *                   {@code S}.
     * @throws IllegalArgumentException for another name: it could be blank or a snapshot session's.
     */
    SessionNames(final String runSession)
    {
        if (runSession.isEmpty() || runSession.length() > 10 || runSession.contains(" ") || runSession.startsWith("S"))
        {
            throw new IllegalArgumentException(
                "a fanout run's session name must be 1..10 characters, no spaces, not starting with S: " + runSession);
        }
        this.runSession = runSession;
    }

    /**
     * @param start when the fanout run started.
     * @return the names of a run started then.
     */
    static SessionNames startingAt(final Instant start)
    {
        return new SessionNames(io.bourse.common.time.SessionNames.runStart(start));
    }

    /** @return the name of the run's numbered stream, which replay logins join. */
    String runSession()
    {
        return runSession;
    }

    /** @return a new name for a snapshot login's stream: {@code S} and 9 digits. */
    String nextSnapshotSession()
    {
        return String.format(Locale.ROOT, "S%09d", snapshotSessions.incrementAndGet() % 1_000_000_000L);
    }

    /**
     * @param requestedSession a Login Request's Requested Session, space padded.
     * @return true when blank or the run's stream.
     */
    boolean isAvailable(final String requestedSession)
    {
        final String session = requestedSession.trim();
        return session.isEmpty() || session.equals(runSession);
    }
}
