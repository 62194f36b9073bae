package io.bourse.gateway;

import io.bourse.common.metrics.SingleWriterCounter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Fills the open session journals with zeros ahead of their records, on a thread of its own, so that the gateway
 * agent's thread finds the file's next pages in the page cache already ({@link SessionJournal#pretouch}). A new page
 * of the page cache costs about as much as writing it (measured on the 2-core host: 350-850 MB/s whether the pages
 * are made by a write of zeros, a store into a mapped sparse file or one into a preallocated file), and the journal
 * takes about 200 bytes per order: done on the agent's thread, that was a quarter of its time at 500,000 orders/s.
 * <p>
 * How far ahead follows each journal's own rate, so that the idle journals of a day's many sessions do not each hold
 * the most: every {@link #WINDOW_NS} the pretoucher measures the bytes each journal took since the last measure, and
 * fills it {@value #LEAD_WINDOWS} times that far ahead of its records (40 ms at that rate), at least
 * {@value SessionJournal#ZERO_FILL_LENGTH} bytes and at most the configured distance; a quieter window halves the
 * distance at most, so a pause does not cut a busy journal's lead at once. A window the pretoucher's thread was kept
 * from measuring for longer holds more bytes and so gives a longer lead, when a starved pretoucher needs one. A journal
 * that outruns its lead is filled by the agent's thread itself, as without a pretoucher.
 * <p>
 * A journal whose fill fails is dropped from the cycle and the error thrown (counted by the runner): the agent's
 * thread then meets the failure at its own next fill and fails the journal as before. Journals are added by
 * {@link JournalStore} from any thread; the list is copied on add (a login), never on the duty cycle.
 */
final class JournalPretoucher implements Agent
{
    /** Role name, also the thread's name. */
    static final String ROLE_NAME = "journal-pretoucher";
    /** How often each journal's rate is measured and its distance set, in ns. */
    static final long WINDOW_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Windows of writes, at the last window's rate, that a journal is filled ahead. */
    static final int LEAD_WINDOWS = 4;

    private final long maxAheadBytes;
    private final NanoClock clock;
    private final SingleWriterCounter pretouchedBytes;
    private final ByteBuffer zeros = ByteBuffer.allocateDirect(SessionJournal.ZERO_FILL_LENGTH);
    private volatile Lead[] leads = new Lead[0];
    private long nextWindowNs;

    /**
     * @param maxAheadBytes   the most that any journal is filled past its records, in bytes; at least
     *                        {@value SessionJournal#ZERO_FILL_LENGTH}.
     * @param clock           times the windows over which each journal's rate is measured.
     * @param pretouchedBytes counts the bytes of zeros this pretoucher writes; incremented on its thread only.
     * @throws IllegalArgumentException for a smaller distance.
     */
    JournalPretoucher(final long maxAheadBytes, final NanoClock clock, final SingleWriterCounter pretouchedBytes)
    {
        if (maxAheadBytes < SessionJournal.ZERO_FILL_LENGTH)
        {
            throw new IllegalArgumentException(
                "pretouch distance must be at least " + SessionJournal.ZERO_FILL_LENGTH + " bytes: " + maxAheadBytes);
        }
        this.maxAheadBytes = maxAheadBytes;
        this.clock = clock;
        this.pretouchedBytes = pretouchedBytes;
        this.nextWindowNs = clock.nanoTime(); // System.nanoTime may be negative: the first window is measured at once
    }

    /**
     * Fills this journal from the next duty cycle on, until it is closed, starting one zero fill ahead of its records.
     *
     * @param journal an open journal.
     */
    synchronized void add(final SessionJournal journal)
    {
        final Lead[] current = leads;
        final Lead[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = new Lead(journal);
        leads = next;
    }

    /**
     * Sets each journal's distance when a window has passed, then brings every journal to its distance ahead of its
     * records.
     *
     * @return bytes filled.
     * @throws IOException naming the journal whose fill failed, which is dropped.
     */
    @Override
    public int doWork() throws IOException
    {
        final Lead[] leads = this.leads;
        final long nowNs = clock.nanoTime();
        if (nowNs - nextWindowNs >= 0)
        {
            nextWindowNs = nowNs + WINDOW_NS;
            for (final Lead lead : leads)
            {
                lead.measure(maxAheadBytes);
            }
        }
        long filled = 0;
        for (final Lead lead : leads)
        {
            final long bytes;
            try
            {
                bytes = lead.journal.pretouch(lead.aheadBytes, zeros);
            }
            catch (final IOException ex)
            {
                drop(lead);
                throw new IOException(lead.journal.file() + ": zero fill ahead of the records failed, left to the " +
                    "gateway agent: " + ex.getMessage(), ex);
            }
            pretouchedBytes.inc(bytes);
            filled += bytes;
        }
        return (int)Math.min(Integer.MAX_VALUE, filled);
    }

    @Override
    public String roleName()
    {
        return ROLE_NAME;
    }

    private synchronized void drop(final Lead lead)
    {
        final Lead[] current = leads;
        final Lead[] next = new Lead[current.length - 1];
        int i = 0;
        for (final Lead kept : current)
        {
            if (kept != lead)
            {
                next[i++] = kept;
            }
        }
        leads = next;
    }

    /** A journal and how far ahead of its records to fill it; the distance is the pretoucher thread's alone. */
    private static final class Lead
    {
        private final SessionJournal journal;
        private long measuredEnd;
        private long aheadBytes = SessionJournal.ZERO_FILL_LENGTH;

        private Lead(final SessionJournal journal)
        {
            this.journal = journal;
            this.measuredEnd = journal.writtenEnd();
        }

        /** Sets the distance from the bytes written since the last measure. */
        private void measure(final long maxAheadBytes)
        {
            final long end = journal.writtenEnd();
            final long written = end - measuredEnd;
            measuredEnd = end;
            aheadBytes = Math.min(maxAheadBytes,
                Math.max(SessionJournal.ZERO_FILL_LENGTH, Math.max(LEAD_WINDOWS * written, aheadBytes / 2)));
        }
    }
}
