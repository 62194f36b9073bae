package io.bourse.fanout;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SoupBinTCP 4.0 session names a fanout run gives in Login Accepted, so that a subscriber resumes only the stream
 * whose sequence numbers it holds:
 * <ul>
 *   <li>A replay login (a Requested Sequence Number still in the replay history), and a login naming that stream, joins
 *   the current trading day's numbered stream, all symbols. Its name starts with {@value #DAY_PREFIX}: the run's first
 *   day's then the run's start in UTC ({@link #startingAt}: the month as one hexadecimal digit, 1 to C, then {@value
 *   #RUN_START_FORMAT}; 10 characters); each later day's, which starts at midnight UTC numbered from 1 again, then its
 *   date ({@link #ofDate}, {@code yyyyMMdd}; 9 characters, so never a run's). Its subscriber can log in again with that
 *   name and its next sequence number, within the day: the stream carries every symbol (a subscription that leaves some
 *   out is refused there), so its numbers are the same for every subscriber. The prefix keeps the name apart from the
 *   md-publisher's MoldUDP64 sessions ({@code MMddHHmmss}, {@code yyyyMMdd}), whose numbers count the session's opening
 *   too: a client that resumes the fanout with a MoldUDP64 session's name and number is rejected rather than given
 *   other messages under those numbers.</li>
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
     * First character of every day's stream name, and of no other session the fanout or the md-publisher names (a
     * MoldUDP64 session configured by hand aside).
     */
    static final String DAY_PREFIX = "F";
    /**
     * Format of the run's start in its first day's stream name, after its month: UTC to the second, so that another
     * run has its name only if started in the same second of a year.
     */
    static final String RUN_START_FORMAT = "ddHHmmss";
    private static final DateTimeFormatter RUN_START = DateTimeFormatter.ofPattern(RUN_START_FORMAT, Locale.ROOT)
        .withZone(ZoneOffset.UTC);

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
     * @param runSession the name of the run's first day's numbered stream: {@value #DAY_PREFIX} then 0..9 characters
     *                   without spaces.
     * @throws IllegalArgumentException for another name: it could be blank, a snapshot session's or a MoldUDP64
     *                                  session's.
     */
    SessionNames(final String runSession)
    {
        this.day = new Day(0, checked(runSession));
    }

    /**
     * @param start when the fanout run started.
     * @return the names of a run started then: its first day's stream {@value #DAY_PREFIX}, the month in UTC as one
     *         hexadecimal digit (1 to 9, A to C), then {@value #RUN_START_FORMAT} in UTC, e.g. {@code FB26093012} for
     *         26 November 09:30:12.
     */
    static SessionNames startingAt(final Instant start)
    {
        final int month = start.atZone(ZoneOffset.UTC).getMonthValue();
        return new SessionNames(
            DAY_PREFIX + Character.toUpperCase(Character.forDigit(month, 16)) + RUN_START.format(start));
    }

    /**
     * @param date a trading day after the run's first.
     * @return the name of its numbered stream: {@value #DAY_PREFIX} and {@code yyyyMMdd}, e.g. {@code F20261127}.
     */
    static String ofDate(final LocalDate date)
    {
        return DAY_PREFIX + io.bourse.common.time.SessionNames.ofDate(date);
    }

    /** @return the current trading day: the one a login made now belongs to. */
    Day day()
    {
        return day;
    }

    /**
     * Midnight UTC: the current day ends and the next starts; the dispatcher's thread only.
     *
     * @param session the name of the next day's numbered stream ({@link #ofDate}): {@value #DAY_PREFIX} then 0..9
     *                characters without spaces.
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
        if (session.length() > io.bourse.common.time.SessionNames.MAX_LENGTH || session.contains(" ") ||
            !session.startsWith(DAY_PREFIX))
        {
            throw new IllegalArgumentException("a fanout day's session name must be " + DAY_PREFIX +
                " then 0..9 characters, no spaces: " + session);
        }
        return session;
    }
}
