package io.bourse.gateway;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class JournalStoreTest
{
    private static final String SESSION = "20250102";

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    @TempDir
    private Path root;

    @Test
    void shouldRecoverEveryUsersJournalAndLargestSessionIndexWhenReopened() throws IOException
    {
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).isZero();
            final SessionJournal demo = store.journal("demo01");
            demo.sessionIndex(3);
            append(demo, 2);
            final SessionJournal odd = store.journal("a/b.ü");
            odd.sessionIndex(5);
            append(odd, 1);
            assertThat(store.journal("demo01")).isSameAs(demo);
        }

        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).isEqualTo(5);
            assertThat(store.journal("demo01").count()).isEqualTo(2);
            assertThat(store.journal("a/b.ü").count()).isEqualTo(1);
            assertThat(store.journal("demo02").count()).isZero();
            assertThat(fileNames(store.directory())).containsExactly(
                "a%2Fb%2E%C3%BC.journal", "demo01.journal", "demo02.journal");
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_journal_truncations_total", null)).isZero();
    }

    @Test
    void shouldKeepTheSessionIndexFloorOfTheDayBeforeAcrossARestartBelowALargerJournaledIndex() throws IOException
    {
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            store.sessionIndexFloor(7);
            assertThat(store.maxSessionIndex()).isEqualTo(7);
        }
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).as("the floor, no journal yet").isEqualTo(7);
            final SessionJournal demo = store.journal("demo01");
            demo.sessionIndex(8);
            append(demo, 1);
        }
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).isEqualTo(8);
        }
    }

    /**
     * A gateway that rewrote the floor in place and crashed between its truncation and its write left it empty: the
     * day still opens, its session indexes going on from its journals and the other days'. Before, every start of the
     * day failed on it. The floor is now written whole or not at all.
     */
    @Test
    void shouldOpenADayWhoseFloorACrashLeftEmptyAndWriteTheFloorWhole() throws IOException
    {
        try (JournalStore store = JournalStore.open(root, "20250103", JournalSync.NONE, 0, metrics))
        {
            store.sessionIndexFloor(5);
        }
        final Path floor;
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            store.journal("demo01").sessionIndex(3);
            append(store.journal("demo01"), 1);
            store.sessionIndexFloor(4);
            floor = store.directory().resolve(JournalStore.SESSION_INDEX_FLOOR_FILE);
        }
        assertThat(fileNames(floor.getParent())).as("no file of the write left")
            .containsExactly("demo01.journal", JournalStore.SESSION_INDEX_FLOOR_FILE);
        Files.writeString(floor, "");

        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).as("its journal's").isEqualTo(3);
            assertThat(store.continueSessionIndexesOfOtherDays()).as("20250103's floor").isEqualTo(5);
        }
        assertThat(Files.readString(floor)).isEqualTo("5");
    }

    @Test
    void shouldContinuePastTheLargestSessionIndexOfTheOtherDaysWhenADayWithoutAFloorStarts() throws IOException
    {
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            store.journal("demo01").sessionIndex(3);
            store.journal("demo02").sessionIndex(9);
            append(store.journal("demo02"), 1);
            store.journal("demo03"); // no session index yet: 0 in its header
        }
        try (JournalStore store = JournalStore.open(root, "20250103", JournalSync.NONE, 0, metrics))
        {
            store.sessionIndexFloor(12); // as a gateway that stays up into the next day
        }
        final Path foreign = Files.createDirectories(root.resolve("20250104"));
        Files.writeString(foreign.resolve("x.journal"), "not a journal, but long enough"); // logged, skipped
        Files.writeString(foreign.resolve("torn.journal"), "BJNL"); // a header cut short: no index
        Files.writeString(foreign.resolve("notes.txt"), "99999");
        Files.createDirectories(root.resolve("not a session"));

        try (JournalStore store = JournalStore.open(root, "20250105", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).as("opened: its own journals only").isZero();
            assertThat(store.continueSessionIndexesOfOtherDays()).as("20250103's floor").isEqualTo(12);
            assertThat(store.maxSessionIndex()).isEqualTo(12);
            assertThat(store.continueSessionIndexesOfOtherDays()).as("once it has that floor: not raised").isZero();
            store.journal("demo01").sessionIndex(13);
        }
        assertThat(Files.readString(root.resolve("20250105").resolve(JournalStore.SESSION_INDEX_FLOOR_FILE)))
            .isEqualTo("12");
        try (JournalStore store = JournalStore.open(root, "20250105", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.maxSessionIndex()).as("a restart the same day: its floor and journal").isEqualTo(13);
            store.sessionIndexFloor(5);
        }
        assertThat(Files.readString(root.resolve("20250105").resolve(JournalStore.SESSION_INDEX_FLOOR_FILE)))
            .as("a floor never goes down").isEqualTo("13");
        Files.writeString(root.resolve("20250103").resolve(JournalStore.SESSION_INDEX_FLOOR_FILE), "16777216");
        try (JournalStore store = JournalStore.open(root, "20250101", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.continueSessionIndexesOfOtherDays()).as("any other day's, a later one's too; " +
                "20250103's floor, out of range, skipped").isEqualTo(13);
        }
    }

    /**
     * A session name used again (BOURSE_GATEWAY_SESSION=X, then Y, stopped before its close, then X again) goes on
     * past the indexes of the days between, whose orders may still be in the engine.
     */
    @Test
    void shouldRaiseTheFloorOfASessionUsedAgainPastTheIndexesOfTheDaysBetween() throws IOException
    {
        try (JournalStore x = JournalStore.open(root, "X", JournalSync.NONE, 0, metrics))
        {
            assertThat(x.continueSessionIndexesOfOtherDays()).isZero();
            x.journal("demo01").sessionIndex(new SessionIndexes(x.maxSessionIndex()).take());
        }
        try (JournalStore y = JournalStore.open(root, "Y", JournalSync.NONE, 0, metrics))
        {
            assertThat(y.continueSessionIndexesOfOtherDays()).isEqualTo(1);
            y.journal("demo01").sessionIndex(new SessionIndexes(y.maxSessionIndex()).take());
        }

        final Path floor;
        try (JournalStore x = JournalStore.open(root, "X", JournalSync.NONE, 0, metrics))
        {
            assertThat(x.continueSessionIndexesOfOtherDays()).as("Y's").isEqualTo(2);
            assertThat(new SessionIndexes(x.maxSessionIndex()).take()).isEqualTo(3);
            floor = x.directory().resolve(JournalStore.SESSION_INDEX_FLOOR_FILE);
        }
        assertThat(Files.readString(floor)).isEqualTo("2");
    }

    @Test
    void shouldListTheOtherDaysNotMarkedAsTheirOrdersCanceled() throws IOException
    {
        for (final String day : List.of("20250103", "20250102", "20250106"))
        {
            JournalStore.open(root, day, JournalSync.NONE, 0, metrics).close();
        }
        JournalStore.markOrdersCanceled(root.resolve("20250102"));
        Files.createDirectories(root.resolve("not a session"));

        try (JournalStore store = JournalStore.open(root, "20250104", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.otherDaysToCancel()).as("a later day's too, in name order; not its own")
                .containsExactly("20250103", "20250106");
            JournalStore.markOrdersCanceled(store.directory());
            JournalStore.markOrdersCanceled(root.resolve("20250106"));
            assertThat(store.otherDaysToCancel()).containsExactly("20250103");
        }
        assertThat(root.resolve("20250102").resolve(JournalStore.ORDERS_CANCELED_FILE)).isEmptyFile();

        try (JournalStore store = JournalStore.open(root, "20250106", JournalSync.NONE, 0, metrics))
        {
            store.unmarkOrdersCanceled(); // opened as the current day again
            store.unmarkOrdersCanceled();
        }
        try (JournalStore store = JournalStore.open(root, "20250107", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.otherDaysToCancel()).containsExactly("20250103", "20250106");
        }
    }

    /**
     * A retention of 2 days on 2025-01-06 lets go the days named before 2025-01-04 that are done with: not one whose
     * orders may still be in the engine (unmarked), nor the 2 latest days before it, whatever their date (a clock set
     * far ahead), nor a configured session name, nor a later date; deleting a day takes its journals, its other files
     * and the directory.
     */
    @Test
    void shouldLetGoTheDaysDoneWithMoreThanTheRetentionBeforeTheSessionsDate() throws IOException
    {
        for (final String day : List.of("20241231", "20250101", "20250102", "20250103", "20250104", "S1", "20250109"))
        {
            try (JournalStore store = JournalStore.open(root, day, JournalSync.NONE, 0, metrics))
            {
                store.sessionIndexFloor(1);
                append(store.journal("demo01"), 3);
                append(store.journal("demo02"), 2);
            }
            if (!"20250102".equals(day))
            {
                JournalStore.markOrdersCanceled(root.resolve(day));
            }
        }

        try (JournalStore store = JournalStore.open(root, "20250106", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.expiredDays(2)).as("oldest first; 01-03 and 01-04 the latest").containsExactly(
                root.resolve("20241231"), root.resolve("20250101"));
            assertThat(store.expiredDays(4)).containsExactly(root.resolve("20241231"));
            assertThat(store.expiredDays(6)).isEmpty();

            final long bytes = Files.size(root.resolve("20241231/demo01.journal")) +
                Files.size(root.resolve("20241231/demo02.journal")) +
                Files.size(root.resolve("20241231").resolve(JournalStore.SESSION_INDEX_FLOOR_FILE));
            assertThat(JournalStore.deleteDay(root.resolve("20241231"))).isEqualTo(bytes);
            assertThat(root.resolve("20241231")).doesNotExist();
            assertThat(store.expiredDays(2)).containsExactly(root.resolve("20250101"));
        }
        try (JournalStore store = JournalStore.open(root, "20250306", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.expiredDays(1)).as("a month later: all but the latest day before, 01-09")
                .containsExactly(root.resolve("20250101"), root.resolve("20250103"), root.resolve("20250104"));
        }
        try (JournalStore store = JournalStore.open(root, "S1", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.expiredDays(1)).as("a configured session name has no date").isEmpty();
        }
    }

    @Test
    void shouldFillEveryJournalAheadOnThePretouchersThreadAndCutTheFillWhenClosed() throws IOException
    {
        final long most = 16 * SessionJournal.ZERO_FILL_LENGTH;
        final long ahead = SessionJournal.ZERO_FILL_LENGTH;
        final Path file;
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, most, metrics))
        {
            final SessionJournal journal = store.journal("demo01");
            file = journal.file();
            append(journal, 3);
            journal.sync();

            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (journal.zeroFilledEnd() < journal.writtenEnd() + ahead && System.nanoTime() - deadlineNs < 0)
            {
                Thread.yield();
            }
            assertThat(journal.zeroFilledEnd()).as("a quiet journal is filled one zero fill ahead, not the most")
                .isGreaterThanOrEqualTo(journal.writtenEnd() + ahead).isLessThan(most);
            assertThat(Metrics.counter(registry, "bourse_gateway_journal_pretouched_bytes_total", null))
                .isPositive().isLessThanOrEqualTo(journal.zeroFilledEnd());
            assertThat(Thread.getAllStackTraces().keySet()).anyMatch(
                (thread) -> JournalPretoucher.ROLE_NAME.equals(thread.getName()));
        }
        assertThat(Files.size(file)).isEqualTo(SessionJournal.FILE_HEADER_LENGTH + 3 * 9);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
            (thread) -> JournalPretoucher.ROLE_NAME.equals(thread.getName()));
        assertThat(Metrics.sum(registry, "bourse_gateway_errors_total")).isZero();
    }

    @Test
    void shouldCountAndTruncateTornTailWhenRecovering() throws IOException
    {
        final Path file;
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.BATCH, 0, metrics))
        {
            final SessionJournal journal = store.journal("demo01");
            append(journal, 4);
            file = journal.file();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(channel.size() - 1);
        }

        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.BATCH, 0, metrics))
        {
            assertThat(store.journal("demo01").count()).isEqualTo(3);
        }
        assertThat(Metrics.counter(registry, "bourse_gateway_journal_truncations_total", null)).isEqualTo(1);
    }

    @Test
    void shouldKeepEachSessionsJournalsApart() throws IOException
    {
        try (JournalStore store = JournalStore.open(root, SESSION, JournalSync.NONE, 0, metrics))
        {
            append(store.journal("demo01"), 2);
        }

        try (JournalStore store = JournalStore.open(root, "20250103", JournalSync.NONE, 0, metrics))
        {
            assertThat(store.journal("demo01").count()).isZero();
        }
        assertThat(fileNames(root)).containsExactly("20250102", "20250103");
    }

    @Test
    void shouldDecodeOnlyNamesThatEncodeMakes()
    {
        for (final String name : List.of("demo01", "A_b-9", "a/b", "..", "%", "ü", "x y"))
        {
            assertThat(JournalStore.decode(JournalStore.encode(name))).isEqualTo(name);
        }
        assertThat(JournalStore.encode("..")).isEqualTo("%2E%2E");
        assertThat(JournalStore.decode("")).isNull();
        assertThat(JournalStore.decode("a.b")).isNull();
        assertThat(JournalStore.decode("%41")).isNull();
        assertThat(JournalStore.decode("%2e")).isNull();
        assertThat(JournalStore.decode("a%2")).isNull();
        assertThat(JournalStore.decode("%ZZ")).isNull();
    }

    private static void append(final SessionJournal journal, final int count) throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            journal.buffer().putByte(journal.claim(1), (byte)i);
            journal.commit(1);
        }
    }

    private static List<String> fileNames(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map((file) -> file.getFileName().toString()).sorted().toList();
        }
    }
}
