package io.bourse.fanout;

import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SoupBinTCP 4.0 session names a fanout run gives in Login Accepted, so that a subscriber resumes only the stream
 * whose sequence numbers it holds:
 * <ul>
 *   <li>A replay login (a Requested Sequence Number still in the replay history), and a login naming that stream, joins
 *   the current trading day's numbered stream, all symbols. The run's first day's is named after the run's start
 *   ({@link io.bourse.common.time.SessionNames#runStart}, UTC {@value
 *   io.bourse.common.time.SessionNames#RUN_START_FORMAT}, 10 characters); each later day's, which starts at midnight
 *   UTC numbered from 1 again, after its date ({@link io.bourse.common.time.SessionNames#ofDate}, {@code yyyyMMdd}, 8
 *   characters), as the md-publisher's MoldUDP64 sessions are. Its subscriber can log in again with that name and its
 *   next sequence number, within the day: the stream carries every symbol (a subscription that leaves some out is
 *   refused there), so its numbers are the same for every subscriber.</li>
 *   <li>A snapshot login gets a stream of its own, numbered from 1 (the opening messages, the book, then the live
 *   messages of its symbols), which no later login can resume: named {@code S} and 9 digits, a new one for every
 *   snapshot login of the run.</li>
 * </ul>
 * A Login Request naming any other session, a snapshot session, an ended day's or an earlier run's, is rejected 'S'
 * (session not available), as SoupBinTCP 4.0 has it, instead of being given another stream's messages under its
 * numbers. A blank requested session means the current day's: a snapshot subscriber that logs in again with a blank
 * name and its own next number gets the day's stream from that number, which is not where it stood; a subscriber
 * resumes by the name Login Accepted gave it. Any thread; the days are moved on by the dispatcher's only.
 */
final class SessionNames
{
    /**
     * A trading day of the run.
     *
     * @param ordinal 0 for the run's first day, then 1, 2, ... at each midnight UTC.
     * @param session the name of its numbered stream, which replay logins join.
     */
    record Day(long ordinal, String session)
    {
        /**
         * @param requestedSession a Login Request's Requested Session, space padded.
         * @return true when blank or this day's stream.
         */
        boolean isAvailable(final String requestedSession)
        {
            final String requested = requestedSession.trim();
            return requested.isEmpty() || requested.equals(session);
        }
    }

    private final AtomicLong snapshotSessions = new AtomicLong();
    private volatile Day day;

    /**
     * @param runSession the name of the run's first day's numbered stream: see {@link #nextDay}.
     * @throws IllegalArgumentException for another name: it could be blank or a snapshot session's.
     */
    SessionNames(final String runSession)
    {
        this.day = new Day(0, checked(runSession));
    }

    /**
     * @param start when the fanout run started.
     * @return the names of a run started then.
     */
    static SessionNames startingAt(final Instant start)
    {
        return new SessionNames(io.bourse.common.time.SessionNames.runStart(start));
    }

    /** @return the current trading day: the one a login made now belongs to. */
    Day day()
    {
        return day;
    }

    /**
     * Midnight UTC: the current day ends and the next starts; the dispatcher's thread only.
     *
     * @param session the name of the next day's numbered stream, 1..10 characters, no spaces, not starting with
     *                {@code S}.
     * @return the day started.
     * @throws IllegalArgumentException for another name.
     */
    Day nextDay(final String session)
    {
        final Day next = new Day(day.ordinal() + 1, checked(session));
        day = next;
        return next;
    }

    /** @return a new name for a snapshot login's stream: {@code S} and 9 digits. */
    String nextSnapshotSession()
    {
        return String.format(Locale.ROOT, "S%09d", snapshotSessions.incrementAndGet() % 1_000_000_000L);
    }

    private static String checked(final String session)
    {
        if (session.isEmpty() || session.length() > 10 || session.contains(" ") || session.startsWith("S"))
        {
            throw new IllegalArgumentException(
                "a fanout day's session name must be 1..10 characters, no spaces, not starting with S: " + session);
        }
        return session;
    }
}
