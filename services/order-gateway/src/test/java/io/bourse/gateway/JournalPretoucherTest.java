package io.bourse.gateway;

import io.bourse.common.aeron.AgentLaunch;
import io.bourse.common.metrics.SingleWriterCounter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JournalPretoucherTest
{
    /** The most any journal is filled ahead. */
    private static final long MOST = 4 * SessionJournal.ZERO_FILL_LENGTH;
    /** Where a new journal's records start: after the file's header. */
    private static final long FIRST_RECORD = SessionJournal.FILE_HEADER_LENGTH;

    @TempDir
    private Path directory;
    private long nowNs = 1_000;
    private final SingleWriterCounter pretouchedBytes = counter();
    private final JournalPretoucher pretoucher = new JournalPretoucher(MOST, () -> nowNs, pretouchedBytes);

    @Test
    void shouldFillANewJournalOneZeroFillAheadAndAJournalWrittenFasterFurtherUpToTheMost() throws IOException
    {
        try (SessionJournal alice = open("alice"); SessionJournal bob = open("bob"))
        {
            pretoucher.add(alice);
            pretoucher.add(bob);

            assertThat(pretoucher.doWork()).isPositive();
            assertFilledAhead(alice, SessionJournal.ZERO_FILL_LENGTH);
            assertFilledAhead(bob, SessionJournal.ZERO_FILL_LENGTH);
            assertThat(pretoucher.doWork()).isZero();

            final long before = alice.writtenEnd();
            append(alice, 1, 600);
            alice.sync();
            final long written = alice.writtenEnd() - before;
            assertThat(JournalPretoucher.LEAD_WINDOWS * written).isGreaterThan(SessionJournal.ZERO_FILL_LENGTH)
                .isLessThan(MOST);
            assertThat(pretoucher.doWork()).as("the distance is set once a window has passed").isZero();

            nowNs += JournalPretoucher.WINDOW_NS;
            assertThat(pretoucher.doWork()).isPositive();
            assertFilledAhead(alice, JournalPretoucher.LEAD_WINDOWS * written);
            assertFilledAhead(bob, SessionJournal.ZERO_FILL_LENGTH);

            append(alice, 601, 3_000);
            alice.sync();
            nowNs += JournalPretoucher.WINDOW_NS;
            assertThat(pretoucher.doWork()).isPositive();
            assertFilledAhead(alice, MOST);
            assertThat(pretouchedBytes.get()).isEqualTo(
                alice.zeroFilledEnd() - FIRST_RECORD + bob.zeroFilledEnd() - FIRST_RECORD);
        }
    }

    @Test
    void shouldHalveTheDistancePerQuietWindowAtMost() throws IOException
    {
        try (SessionJournal alice = open("alice"))
        {
            fillAheadTheMost(pretoucher, alice);

            nowNs += JournalPretoucher.WINDOW_NS;
            pretoucher.doWork();
            append(alice, 3_001, 6_000);
            alice.sync();
            pretoucher.doWork();
            assertFilledAhead(alice, MOST / 2);

            for (int window = 0; window < 4; window++)
            {
                nowNs += JournalPretoucher.WINDOW_NS;
                pretoucher.doWork();
            }
            append(alice, 6_001, 9_000);
            alice.sync();
            pretoucher.doWork();
            assertFilledAhead(alice, SessionJournal.ZERO_FILL_LENGTH);
        }
    }

    /**
     * {@code System.nanoTime} may be negative: the windows are measured from the first duty cycle on all the same.
     * Before, none was until the clock passed 0, so a busy journal stayed one zero fill ahead.
     */
    @Test
    void shouldMeasureTheWindowsWhenTheMonotonicClockIsNegative() throws IOException
    {
        nowNs = Long.MIN_VALUE / 2;
        final JournalPretoucher pretoucher = new JournalPretoucher(MOST, () -> nowNs, pretouchedBytes);
        try (SessionJournal alice = open("alice"))
        {
            fillAheadTheMost(pretoucher, alice);
        }
    }

    /**
     * Adds the journal to the pretoucher, writes 3,000 records to it within one window, and checks that the pretoucher
     * fills it the most ahead once the window has passed.
     */
    private void fillAheadTheMost(final JournalPretoucher pretoucher, final SessionJournal journal) throws IOException
    {
        pretoucher.add(journal);
        append(journal, 1, 3_000);
        journal.sync();
        nowNs += JournalPretoucher.WINDOW_NS;
        pretoucher.doWork();
        assertFilledAhead(journal, MOST);
    }

    @Test
    void shouldKeepEveryRecordWhenFillingAheadOnItsOwnThreadWhileTheJournalIsWritten() throws IOException
    {
        final int messages = 200_000;
        final AtomicLong errors = new AtomicLong();
        final JournalPretoucher pretoucher = new JournalPretoucher(
            SessionJournal.ZERO_FILL_LENGTH, SystemNanoClock.INSTANCE, counter());
        final AtomicLong pretouched = new AtomicLong();
        final Agent counting = new Agent()
        {
            public int doWork() throws IOException
            {
                final int filled = pretoucher.doWork();
                pretouched.addAndGet(filled);
                return filled;
            }

            public String roleName()
            {
                return pretoucher.roleName();
            }
        };
        long written;
        try (SessionJournal journal = open("alice");
            AgentRunner ignore = AgentLaunch.start(counting, new NoOpIdleStrategy(), errors))
        {
            pretoucher.add(journal);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (0 == pretouched.get() && System.nanoTime() - deadlineNs < 0)
            {
                Thread.yield();
            }
            for (int first = 1; first <= messages; first += 50)
            {
                append(journal, first, first + 49);
                journal.sync();
            }
            written = journal.writtenEnd();
        }
        assertThat(errors).hasValue(0);
        assertThat(pretouched.get()).isPositive();
        assertThat(Files.size(directory.resolve("alice.journal"))).isEqualTo(written);
        try (SessionJournal journal = open("alice"))
        {
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(journal.count()).isEqualTo(messages);
            for (int sequenceNumber = 1; sequenceNumber <= messages; sequenceNumber++)
            {
                assertThat(journal.message(sequenceNumber)).isEqualTo(message(sequenceNumber));
            }
        }
    }

    @Test
    void shouldNotFillAJournalOnceItIsClosedNorHangWhenItIsClosedAgain() throws IOException
    {
        final SessionJournal journal = open("alice");
        pretoucher.add(journal);
        append(journal, 1, 10);
        journal.close();
        final long length = Files.size(journal.file());

        assertThat(pretoucher.doWork()).isZero();
        assertThat(Files.size(journal.file())).isEqualTo(length);
        journal.close();
        assertThat(Files.size(journal.file())).isEqualTo(length);
    }

    @Test
    void shouldRefuseADistanceShorterThanOneZeroFill()
    {
        assertThatThrownBy(() -> new JournalPretoucher(
            SessionJournal.ZERO_FILL_LENGTH - 1, SystemNanoClock.INSTANCE, counter()))
            .isInstanceOf(IllegalArgumentException.class);
    }

    /** The zeros reach the distance past the records, by whole zero fills. */
    private static void assertFilledAhead(final SessionJournal journal, final long aheadBytes)
    {
        final long filled = journal.zeroFilledEnd();
        assertThat(filled % SessionJournal.ZERO_FILL_LENGTH).isZero();
        assertThat(filled).isGreaterThanOrEqualTo(journal.writtenEnd() + aheadBytes)
            .isLessThan(journal.writtenEnd() + aheadBytes + SessionJournal.ZERO_FILL_LENGTH);
    }

    private static SingleWriterCounter counter()
    {
        return SingleWriterCounter.register(new PrometheusRegistry(), "pretouched_bytes_total", "zeros written");
    }

    private SessionJournal open(final String username) throws IOException
    {
        return SessionJournal.open(directory.resolve(username + JournalStore.SUFFIX), JournalSync.NONE);
    }

    /** Appends messages first..last, each {@link #message} of its sequence number. */
    private static void append(final SessionJournal journal, final int first, final int last) throws IOException
    {
        for (int sequenceNumber = first; sequenceNumber <= last; sequenceNumber++)
        {
            final ByteBuffer message = message(sequenceNumber);
            final int length = message.remaining();
            journal.buffer().putBytes(journal.claim(length), message, 0, length);
            journal.commit(length);
        }
    }

    /** @return 1 to 120 bytes, counting up from the sequence number's low byte. */
    private static ByteBuffer message(final int sequenceNumber)
    {
        final ByteBuffer message = ByteBuffer.allocate(1 + sequenceNumber % 120);
        for (int i = 0; i < message.capacity(); i++)
        {
            message.put(i, (byte)(sequenceNumber + i));
        }
        return message;
    }
}
