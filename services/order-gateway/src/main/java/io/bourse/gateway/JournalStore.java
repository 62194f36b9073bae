package io.bourse.gateway;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.SessionNames;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The journals of one SoupBinTCP session (the trading day): one {@link SessionJournal} per user, in
 * {@code <directory>/<session>/<username>.journal}, names percent-encoded outside {@code [A-Za-z0-9_-]}, and beside
 * them the session's {@link EventPositions} in the engine event streams the journals answer through. Opening the
 * store recovers every journal of the session, so that each user's sequence numbers continue after the last message
 * journaled before a restart (and the gateway can rebuild the user's orders from it, {@link OrderRebuild}); a torn
 * last record is truncated, counted in {@code bourse_gateway_journal_truncations_total} and logged. At a gateway's
 * start, the other sessions' journals are read for their session indexes ({@link #continueSessionIndexesOfOtherDays}),
 * and those of the days not marked done with are opened as stores of their own to cancel the orders they leave open
 * ({@link #otherDaysToCancel}).
 * With a pretouch distance, a {@link JournalPretoucher} on a thread of the store's own fills
 * every journal with zeros ahead of its records, as far as the journal's recent rate needs and at most that distance
 * (the thread sleeps a millisecond when all are filled); without one the gateway agent fills as it writes. Used by
 * the gateway agent thread once started; opened and closed by the service.
 */
final class JournalStore implements AutoCloseable
{
    /** File name suffix of a journal. */
    static final String SUFFIX = ".journal";
    /**
     * Name of the file in the session's directory holding the largest session index the trading day before knew of,
     * in decimal ({@link #sessionIndexFloor}).
     */
    static final String SESSION_INDEX_FLOOR_FILE = "session-index.floor";
    /** Suffix of the floor's next value while it is written, before it is renamed over the floor. */
    private static final String NEXT_FLOOR_SUFFIX = ".next";
    /**
     * Name of the empty file in a trading day's directory that tells that every order its journals leave open has had
     * its cancel taken by its engine shard, or that none was left open ({@link #markOrdersCanceled}).
     */
    static final String ORDERS_CANCELED_FILE = "orders.canceled";

    private final String sessionName;
    private final Path directory;
    private final JournalSync sync;
    private final Map<String, SessionJournal> journals = new TreeMap<>();
    private final JournalPretoucher pretoucher;
    private AgentRunner pretoucherRunner;
    private EventPositions eventPositions;
    private CollarReferences collarReferences;
    private int maxSessionIndex;

    private JournalStore(final String sessionName, final Path directory, final JournalSync sync,
        final long pretouchBytes, final GatewayMetrics metrics)
    {
        this.sessionName = sessionName;
        this.directory = directory;
        this.sync = sync;
        this.pretoucher = pretouchBytes > 0 ?
            new JournalPretoucher(pretouchBytes, SystemNanoClock.INSTANCE, metrics.journalPretouchedBytes) : null;
    }

    /**
     * Creates the session's directory if needed and recovers every journal in it.
     *
     * @param root        the journal directory ({@code bourse.gateway.journal.dir}).
     * @param sessionName the SoupBinTCP session, today's.
     * @param sync          durability policy of the journals.
     * @param pretouchBytes the most that the {@link JournalPretoucher} fills a journal ahead of its records, in
     *                      bytes; 0 for no pretoucher.
     * @param metrics       counts the truncations and the pretoucher's bytes, and its errors with the gateway's.
     * @return the store.
     * @throws IOException              when the directory or a journal cannot be read or written, or a file is not a
     *                                  journal.
     * @throws IllegalArgumentException for a pretouch distance below {@value SessionJournal#ZERO_FILL_LENGTH}, not 0.
     */
    static JournalStore open(final Path root, final String sessionName, final JournalSync sync,
        final long pretouchBytes, final GatewayMetrics metrics) throws IOException
    {
        final JournalStore store = new JournalStore(
            sessionName, root.resolve(encode(sessionName)), sync, pretouchBytes, metrics);
        try
        {
            store.recover(metrics);
            if (null != store.pretoucher)
            {
                store.pretoucherRunner = AgentLaunch.start(
                    store.pretoucher, new SleepingMillisIdleStrategy(1), metrics.agentExceptionCount());
            }
            return store;
        }
        catch (final IOException | RuntimeException ex)
        {
            store.close();
            throw ex;
        }
    }

    /** @return the SoupBinTCP session the journals are of: their trading day's. */
    String sessionName()
    {
        return sessionName;
    }

    /** @return the directory of this session's journals. */
    Path directory()
    {
        return directory;
    }

    /**
     * Records the largest session index the trading day before knew of, forced to disk with its directory entry, so
     * that the day's sessions take indexes past it, also after a restart, when the engine events of the day before are
     * not replayed: an order of the day before still in the engine then shares its clientOrderId with no order of this
     * day. Written to a file of its own, then renamed over the floor, so that a crash leaves the old floor or the new
     * one (before, the floor was rewritten in place: a crash between its truncation and its write left it empty, and
     * every start of that day failed on it).
     *
     * @param largestKnown the day before's {@link SessionIndexes#largestKnown()}.
     * @throws IOException when the file cannot be written.
     */
    void sessionIndexFloor(final int largestKnown) throws IOException
    {
        maxSessionIndex = Math.max(maxSessionIndex, largestKnown);
        final Path next = directory.resolve(SESSION_INDEX_FLOOR_FILE + NEXT_FLOOR_SUFFIX);
        Files.writeString(next, Integer.toString(maxSessionIndex), StandardCharsets.US_ASCII,
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
            StandardOpenOption.SYNC);
        Files.move(next, directory.resolve(SESSION_INDEX_FLOOR_FILE), StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(directory); // the rename too
    }

    /**
     * At a gateway's start: the session's floor ({@link #sessionIndexFloor}) is raised to the largest session index of
     * the other trading days in the journal directory, every journal's and every floor's, so that a gateway started on
     * a later date than it stopped on continues from it, as one that stays up continues from the closing day's ({@link
     * SessionIndexes#largestKnown()}): an order of an earlier day still in the engine then never shares its
     * clientOrderId with one of the new day's. Also when the session has a floor already: a session name used again (a
     * configured one, or a clock set back) goes on past the days between (their orders may still be in the engine;
     * before, it kept its old floor and took their indexes again). Only each journal's header is read. Directories and
     * files whose names {@link #encode} does not make, and journals whose header is not a session journal's or holds an
     * index out of range, are logged and skipped; one deleted meanwhile is skipped. Not for a day opened by a running
     * gateway, which holds the closing day's journals open (and locked: closing another channel to a locked file would
     * release the lock).
     *
     * @return the largest session index of the other days when the session's floor was raised to it (or written,
     *         for a session without one); 0 when the session's own journals or floor were at or past it.
     * @throws IOException when the journal directory or a journal in it cannot be read, or the floor written.
     */
    int continueSessionIndexesOfOtherDays() throws IOException
    {
        int largest = 0;
        for (final Path session : otherDays())
        {
            largest = Math.max(largest, largestSessionIndexOf(session));
        }
        if (largest > maxSessionIndex || !Files.exists(directory.resolve(SESSION_INDEX_FLOOR_FILE)))
        {
            sessionIndexFloor(largest);
            return largest;
        }
        return 0;
    }

    /**
     * At a gateway's start: the other trading days in the journal directory whose orders may still be in the engine,
     * those without the mark of {@link #markOrdersCanceled}: a day the gateway was stopped in before its close, or
     * closed with cancels its shards had not taken yet. Directories whose names {@link #encode} does not make are
     * skipped.
     *
     * @return their session names, in name order.
     * @throws IOException when the journal directory cannot be read.
     */
    List<String> otherDaysToCancel() throws IOException
    {
        final List<String> days = new ArrayList<>();
        for (final Path session : otherDays())
        {
            if (!Files.exists(session.resolve(ORDERS_CANCELED_FILE)))
            {
                days.add(decode(session.getFileName().toString()));
            }
        }
        return days;
    }

    /**
     * The other trading days whose journals a retention of so many days lets go: each named after a date (daily
     * sessions, {@code yyyyMMdd}) more than {@code retentionDays} days before this session's date, not among the
     * {@code retentionDays} latest dates before it (a clock set far ahead, or a gateway stopped for longer than the
     * retention, keeps the days it last traded), not a link, and marked done with ({@link #markOrdersCanceled}): a day
     * whose orders may still be in the engine stays for a start to cancel them. None when this session is not named
     * after a date (a configured name).
     *
     * @param retentionDays days a closed day's journals are kept after it, at least 1.
     * @return the days' directories, in name order (oldest first).
     * @throws IOException when the journal directory cannot be read.
     */
    List<Path> expiredDays(final int retentionDays) throws IOException
    {
        final LocalDate today = SessionNames.dateOf(sessionName);
        final List<Path> expired = new ArrayList<>();
        if (null == today)
        {
            return expired;
        }
        final List<Path> days = otherDays();
        int laterDays = 0; // dated days before today and after this one: the name order is the date order
        for (int i = days.size() - 1; i >= 0; i--)
        {
            final Path session = days.get(i);
            final LocalDate day = SessionNames.dateOf(decode(session.getFileName().toString()));
            if (null != day && day.isBefore(today) && laterDays++ >= retentionDays &&
                day.isBefore(today.minusDays(retentionDays)) && !Files.isSymbolicLink(session) &&
                Files.exists(session.resolve(ORDERS_CANCELED_FILE)))
            {
                expired.addFirst(session);
            }
        }
        return expired;
    }

    /**
     * Deletes a trading day's directory: its journals and other files first, its mark of {@link #markOrdersCanceled}
     * last, so that a deletion cut short by a stop leaves a day still marked, which the next deletion finishes, and
     * never one that a start would rebuild.
     *
     * @param dayDirectory the day's directory, not open in any store.
     * @return bytes of the files deleted.
     * @throws IOException when a file or the directory cannot be deleted.
     */
    static long deleteDay(final Path dayDirectory) throws IOException
    {
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dayDirectory))
        {
            for (final Path file : files)
            {
                if (!ORDERS_CANCELED_FILE.equals(file.getFileName().toString()))
                {
                    final BasicFileAttributes attributes =
                        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    Files.delete(file); // a link itself, not what it points at
                    bytes += attributes.isRegularFile() ? attributes.size() : 0;
                }
            }
        }
        Files.deleteIfExists(dayDirectory.resolve(ORDERS_CANCELED_FILE));
        Files.delete(dayDirectory);
        return bytes;
    }

    /**
     * Marks a trading day's orders done with: every order its journals leave open has had its cancel taken by its
     * engine shard, or none was left open. A gateway's start then no longer rebuilds the day ({@link
     * #otherDaysToCancel}). The mark is an empty file, {@value #ORDERS_CANCELED_FILE}, forced to disk with its
     * directory entry.
     *
     * @param dayDirectory the day's directory ({@link #directory()}).
     * @throws IOException when the file cannot be written.
     */
    static void markOrdersCanceled(final Path dayDirectory) throws IOException
    {
        Files.write(dayDirectory.resolve(ORDERS_CANCELED_FILE), new byte[0], StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.SYNC);
        forceDirectory(dayDirectory);
    }

    /**
     * Takes away the mark of {@link #markOrdersCanceled} from this session's directory: opened as the gateway's
     * current day (a restart with a configured session name, or a clock set back), the day takes orders again, which a
     * later start must cancel if the gateway stops before the close.
     *
     * @throws IOException when the file cannot be deleted.
     */
    void unmarkOrdersCanceled() throws IOException
    {
        if (Files.deleteIfExists(directory.resolve(ORDERS_CANCELED_FILE)))
        {
            forceDirectory(directory);
        }
    }

    /**
     * @return the directories of the other sessions in the journal directory, those {@link #encode} names; not this
     * session's through a link either.
     */
    private List<Path> otherDays() throws IOException
    {
        final List<Path> days = new ArrayList<>();
        try (DirectoryStream<Path> sessions = Files.newDirectoryStream(directory.getParent(), Files::isDirectory))
        {
            for (final Path session : sessions)
            {
                try
                {
                    if (null != decode(session.getFileName().toString()) && !Files.isSameFile(session, directory))
                    {
                        days.add(session);
                    }
                }
                catch (final NoSuchFileException ex)
                {
                    // deleted meanwhile
                }
            }
        }
        days.sort(null);
        return days;
    }

    private static int largestSessionIndexOf(final Path session) throws IOException
    {
        int largest = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(session))
        {
            for (final Path file : files)
            {
                final String name = file.getFileName().toString();
                final boolean journal = name.endsWith(SUFFIX) &&
                    null != decode(name.substring(0, name.length() - SUFFIX.length()));
                if (journal || SESSION_INDEX_FLOOR_FILE.equals(name))
                {
                    try
                    {
                        largest = Math.max(largest, journal ? SessionJournal.readSessionIndex(file) : readFloor(file));
                    }
                    catch (final NoSuchFileException ex)
                    {
                        // deleted meanwhile
                    }
                    catch (final InvalidSessionIndexException ex)
                    {
                        System.err.println("[order-gateway] " + ex.getMessage() + ": skipped");
                    }
                }
            }
        }
        catch (final NoSuchFileException ex)
        {
            // deleted meanwhile
        }
        return largest;
    }

    /**
     * @return the largest session index recorded in any journal of the session, or in its floor from the day before
     * ({@link #sessionIndexFloor}) or from the other days ({@link #continueSessionIndexesOfOtherDays}); 0 if none.
     */
    int maxSessionIndex()
    {
        return maxSessionIndex;
    }

    /** @return the users with a journal in the session, recovered or created since, in name order. */
    List<String> usernames()
    {
        return List.copyOf(journals.keySet());
    }

    /**
     * @param username the SoupBinTCP username.
     * @return the user's journal: the recovered one, or a new empty one.
     * @throws IOException when a new journal cannot be created.
     */
    SessionJournal journal(final String username) throws IOException
    {
        SessionJournal journal = journals.get(username);
        if (null == journal)
        {
            journal = SessionJournal.open(directory.resolve(encode(username) + SUFFIX), sync);
            add(username, journal);
            if (JournalSync.BATCH == sync)
            {
                forceDirectory(directory);
            }
        }
        return journal;
    }

    /**
     * @param shardCount the gateway's engine shards (those of the first call hold).
     * @return the session's {@link EventPositions}, opened at the first call, closed with the store.
     * @throws IOException when the file cannot be created or mapped.
     */
    EventPositions eventPositions(final int shardCount) throws IOException
    {
        if (null == eventPositions)
        {
            eventPositions = EventPositions.open(directory, shardCount);
        }
        return eventPositions;
    }

    /**
     * @param symbols the gateway's symbols (those of the first call hold).
     * @return the session's {@link CollarReferences}, opened at the first call, closed with the store.
     * @throws IOException when the file cannot be created or mapped.
     */
    CollarReferences collarReferences(final SymbolDirectory symbols) throws IOException
    {
        if (null == collarReferences)
        {
            collarReferences = CollarReferences.open(directory, symbols);
        }
        return collarReferences;
    }

    /** Stops the pretoucher, then closes every journal, the event positions and the collar references. */
    @Override
    public void close()
    {
        CloseHelper.quietClose(pretoucherRunner);
        CloseHelper.quietCloseAll(journals.values());
        journals.clear();
        CloseHelper.quietCloseAll(eventPositions, collarReferences);
        eventPositions = null;
        collarReferences = null;
    }

    /** Forces a directory's entries to disk, so that a file created in it is found after a crash. */
    private static void forceDirectory(final Path directory) throws IOException
    {
        try (FileChannel directoryChannel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            directoryChannel.force(true);
        }
    }

    private void add(final String username, final SessionJournal journal)
    {
        journals.put(username, journal);
        if (null != pretoucher)
        {
            pretoucher.add(journal);
        }
    }

    private void recover(final GatewayMetrics metrics) throws IOException
    {
        Files.createDirectories(directory);
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*" + SUFFIX))
        {
            stream.forEach(files::add);
        }
        files.sort(null);
        long messages = 0;
        for (final Path file : files)
        {
            final String name = file.getFileName().toString();
            final String username = decode(name.substring(0, name.length() - SUFFIX.length()));
            if (null == username)
            {
                System.err.println("[order-gateway] journal " + file + ": not a journal name, ignored");
                continue;
            }
            final SessionJournal journal = SessionJournal.open(file, sync);
            add(username, journal);
            maxSessionIndex = Math.max(maxSessionIndex, journal.sessionIndex());
            messages += journal.count();
            if (journal.truncatedBytes() > 0)
            {
                metrics.journalTruncations.inc();
                System.err.println("[order-gateway] journal " + file + ": torn tail of " + journal.truncatedBytes() +
                    " bytes truncated after message " + journal.count());
            }
        }
        final Path floor = directory.resolve(SESSION_INDEX_FLOOR_FILE);
        if (Files.exists(floor))
        {
            try
            {
                maxSessionIndex = Math.max(maxSessionIndex, readFloor(floor));
            }
            catch (final InvalidSessionIndexException ex)
            {
                // Written by a gateway that rewrote it in place and crashed meanwhile: the other days' journals and
                // floors, read at the start, hold what it held (continueSessionIndexesOfOtherDays).
                System.err.println("[order-gateway] " + ex.getMessage() + ": ignored, the session indexes continue " +
                    "from the journals of this day and of the others");
            }
        }
        if (!journals.isEmpty())
        {
            System.out.println("order-gateway journal " + directory + ": recovered " + journals.size() +
                " sessions, " + messages + " messages");
        }
    }

    private static int readFloor(final Path floor) throws IOException
    {
        final String text;
        try
        {
            text = Files.readString(floor, StandardCharsets.US_ASCII).trim();
        }
        catch (final CharacterCodingException ex)
        {
            throw new InvalidSessionIndexException(floor + ": not a session index: not ASCII");
        }
        try
        {
            return SessionJournal.checkSessionIndex(floor, Integer.parseInt(text));
        }
        catch (final NumberFormatException ex)
        {
            throw new InvalidSessionIndexException(floor + ": not a session index: " + text);
        }
    }

    /**
     * @param name a username or session name.
     * @return the name with every byte outside {@code [A-Za-z0-9_-]} of its UTF-8 form as {@code %XX}.
     */
    static String encode(final String name)
    {
        final StringBuilder encoded = new StringBuilder(name.length());
        for (final byte b : name.getBytes(StandardCharsets.UTF_8))
        {
            if (isPlain(b))
            {
                encoded.append((char)b);
            }
            else
            {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                    .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return encoded.toString();
    }

    /**
     * @param encoded a name made by {@link #encode}.
     * @return the name, or null when the text is not one {@link #encode} makes.
     */
    static String decode(final String encoded)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++)
        {
            final char c = encoded.charAt(i);
            if ('%' == c && i + 2 < encoded.length())
            {
                final int high = Character.digit(encoded.charAt(i + 1), 16);
                final int low = Character.digit(encoded.charAt(i + 2), 16);
                if (high < 0 || low < 0)
                {
                    return null;
                }
                bytes.write(high << 4 | low);
                i += 2;
            }
            else
            {
                bytes.write(c);
            }
        }
        final String name = bytes.toString(StandardCharsets.UTF_8);
        return encoded.isEmpty() || !encode(name).equals(encoded) ? null : name;
    }

    private static boolean isPlain(final byte b)
    {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || '_' == b || '-' == b;
    }
}
