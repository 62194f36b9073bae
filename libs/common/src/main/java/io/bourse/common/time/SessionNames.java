package io.bourse.common.time;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The name of a trading day's session, as SoupBinTCP 4.0 (Login Accepted, Session: alpha 10) and MoldUDP64 (Session:
 * alpha 10) carry it: 1 to 10 printable ASCII characters without spaces, checked here; by default (SoupBinTCP) today's
 * UTC date as {@code yyyyMMdd}. A service whose every run numbers its messages from 1 (the md-publisher's MoldUDP64
 * session) names each run after its start instead ({@link #runStart}, 10 characters), so that a run's name never is a
 * day's (8). The fanout's day streams number their messages otherwise, so it names them apart, with a prefix of its
 * own.
 */
public final class SessionNames
{
    /** Most characters of a session name. */
    public static final int MAX_LENGTH = 10;
    /**
     * Format of a run's session name, its start in UTC to the second: 10 characters, so two runs started in the same
     * second of a day, in one year or a year apart, share one name.
     */
    public static final String RUN_START_FORMAT = "MMddHHmmss";
    private static final DateTimeFormatter RUN_START = DateTimeFormatter.ofPattern(RUN_START_FORMAT)
        .withZone(ZoneOffset.UTC);

    private SessionNames()
    {
    }

    /**
     * @param start when a run started.
     * @return its session name, {@value #RUN_START_FORMAT} in UTC.
     */
    public static String runStart(final Instant start)
    {
        return RUN_START.format(start);
    }

    /**
     * @param date a trading day.
     * @return the day's session name, {@code yyyyMMdd}: the order gateway's SoupBinTCP session, and the
     *         md-publisher's MoldUDP64 session of a day after the run's first.
     */
    public static String ofDate(final LocalDate date)
    {
        return date.format(DateTimeFormatter.BASIC_ISO_DATE);
    }

    /**
     * The inverse of {@link #ofDate}.
     *
     * @param sessionName a session name, or null.
     * @return the trading day a session name of {@link #ofDate} names ({@code yyyyMMdd}); null for any other name,
     * a configured one, or null.
     */
    public static LocalDate dateOf(final String sessionName)
    {
        if (null == sessionName)
        {
            return null;
        }
        try
        {
            final LocalDate date = LocalDate.parse(sessionName, DateTimeFormatter.BASIC_ISO_DATE);
            return ofDate(date).equals(sessionName) ? date : null; // BASIC_ISO_DATE takes an offset too
        }
        catch (final DateTimeParseException ex)
        {
            return null;
        }
    }

    /**
     * @param configured  the configured name, or null for the default.
     * @param settingName the setting it came from, for the error message.
     * @return the configured name, or today's UTC date as {@code yyyyMMdd} when none is configured.
     * @throws IllegalStateException naming the setting when the name is empty, longer than 10 characters or has
     *                               characters other than printable ASCII without space.
     */
    public static String resolve(final String configured, final String settingName)
    {
        final String name = null == configured ? ofDate(LocalDate.now(ZoneOffset.UTC)) : configured;
        if (name.isEmpty() || name.length() > MAX_LENGTH || !name.chars().allMatch((c) -> c > 0x20 && c < 0x7F))
        {
            throw new IllegalStateException(
                settingName + " must be 1..10 printable ASCII characters without spaces: '" + name + "'");
        }
        return name;
    }
}
