package io.bourse.launcher;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.bourse.common.Await;
import io.bourse.common.aeron.EventArchive;
import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Settings;
import io.bourse.launcher.MediaDriverService.UntetheredTimeouts;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.bourse.common.Await.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The media driver's IPC term length and untethered timeouts from the settings, and its threads (the event archive's
 * too) pinned by their roles as Linux reports them.
 */
@Timeout(20)
class MediaDriverServiceTest
{
    @Test
    void shouldGiveIpcPublicationsTheDefaultTermLengthUnlessSet()
    {
        assertThat(ipcTermLength(Map.of())).isEqualTo(StreamLayout.IPC_TERM_LENGTH_DEFAULT);
        assertThat(ipcTermLength(Map.of("BOURSE_DRIVER_IPC_TERM_LENGTH", "1048576"))).isEqualTo(1024 * 1024);
    }

    @Test
    @Timeout(40)
    void shouldLeaveAnUntetheredSubscriberBehindAfterTheSetTimeoutAndLetItJoinAgainAfterTheSetRest()
    {
        final String directory = aeronDirectoryName();
        final Map<String, String> settings = Map.of("BOURSE_AERON_DIR", directory, "BOURSE_DRIVER_METRICS_PORT", "-1",
            "BOURSE_DRIVER_IPC_TERM_LENGTH", "65536", "BOURSE_DRIVER_UNTETHERED_TIMEOUT_MS", "1500",
            "BOURSE_DRIVER_UNTETHERED_RESTING_TIMEOUT_MS", "1500");
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final FragmentHandler ignore = (b, offset, length, header) -> { };
        try (MediaDriverService ignored = MediaDriverService.launch(new Settings(settings));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(directory));
            Publication publication = aeron.addPublication(StreamLayout.CHANNEL_DEFAULT, 1000);
            // Tethered and reading, as the event archive's recorder and the gateway read an engine's events.
            Subscription reader = aeron.addSubscription(StreamLayout.CHANNEL_DEFAULT, 1000);
            Subscription stalled = aeron.addSubscription(StreamLayout.untethered(StreamLayout.CHANNEL_DEFAULT), 1000))
        {
            awaitTrue(() -> stalled.imageCount() == 1 && reader.imageCount() == 1);
            final long joinedNs = System.nanoTime();
            while (publication.offer(buffer) > 0)
            {
                reader.poll(ignore, Integer.MAX_VALUE);
            }
            assertThat(publication.position()).as("held at the stalled subscriber's term window").isLessThan(65536);
            // Left behind, the stalled subscriber no longer holds the publication; its image comes back past the
            // start. With 1.5 s timeouts (checked every 1 s) within about 8 s; Aeron's own (5 s, a 5 s linger, a 10 s
            // rest) would take 20 s.
            awaitTrue(() ->
            {
                publication.offer(buffer);
                reader.poll(ignore, Integer.MAX_VALUE);
                return stalled.imageCount() == 1 && stalled.imageAtIndex(0).joinPosition() > 0;
            });
            assertThat(publication.position()).as("went on past the stalled subscriber's window").isGreaterThan(65536);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - joinedNs))
                .as("left behind and joined again at the set timeouts, not Aeron's")
                .isLessThan(12_000);
        }
    }

    private static int ipcTermLength(final Map<String, String> environment)
    {
        final String directory = aeronDirectoryName();
        final Map<String, String> settings = new HashMap<>(environment);
        settings.put("BOURSE_AERON_DIR", directory);
        settings.put("BOURSE_DRIVER_METRICS_PORT", "-1");
        try (MediaDriverService ignored = MediaDriverService.launch(new Settings(settings));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(directory));
            Publication publication = aeron.addPublication(StreamLayout.CHANNEL_DEFAULT, 1000))
        {
            return publication.termBufferLength();
        }
    }

    @Test
    void shouldPinEachDriverThreadByItsRoleWhenThreadingIsDedicated() throws IOException
    {
        assumeCpusZeroAndOne();
        final ThreadAffinity affinity = affinity("driver-conductor=0;sender=1;receiver=0-1");

        try (MediaDriverService ignored = MediaDriverService.launch(
            aeronDirectoryName(), ThreadingMode.DEDICATED, StreamLayout.IPC_TERM_LENGTH_DEFAULT,
            UntetheredTimeouts.DEFAULT, -1, false, affinity, EventArchive.DISABLED))
        {
            // Linux keeps 15 characters of a thread's name: "driver-conductor" is "driver-conducto".
            assertCpus(List.of("0", "1", "0-1"), "driver-conducto", "sender", "receiver");
        }
    }

    @Test
    void shouldPinSharedDriverThreadBySharedRoleAndTheArchiveThreadByItsRole(@TempDir final Path archiveDir)
        throws IOException
    {
        assumeCpusZeroAndOne();
        final ThreadAffinity affinity = affinity("driver-shared=1;driver-conductor=0;archive=0");
        final EventArchive archive = new EventArchive(true, archiveDir.toString(), EventArchive.REPLAY_STREAM_DEFAULT);

        try (MediaDriverService ignored = MediaDriverService.launch(
            aeronDirectoryName(), ThreadingMode.SHARED, StreamLayout.IPC_TERM_LENGTH_DEFAULT,
            UntetheredTimeouts.DEFAULT, -1, false, affinity, archive))
        {
            // The archive's one thread (SHARED archive threading) is its conductor's.
            assertCpus(List.of("0"), "archive-conduct");
            // Aeron names the shared thread after its directory and agents, "<dir> [sender,receiver,driver-conductor]".
            final String sharedThreadName = Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName).filter((name) -> name.endsWith(",driver-conductor]")).findFirst().orElseThrow();
            assertCpus(List.of("1"), sharedThreadName.substring(0, Math.min(15, sharedThreadName.length())));
        }
    }

    @Test
    void shouldNotCheckTheEntriesOfDriverRolesItsThreadingModeDoesNotRun()
    {
        // CPU 4095 is no CPU of this process: an entry naming it for a role the process runs stops its start.
        final ThreadAffinity affinity = affinity("sender=4095;receiver=4095;driver-conductor=4095;" +
            "driver-shared-network=4095");

        try (MediaDriverService driver = MediaDriverService.launch(
            aeronDirectoryName(), ThreadingMode.SHARED, StreamLayout.IPC_TERM_LENGTH_DEFAULT,
            UntetheredTimeouts.DEFAULT, -1, false, affinity, EventArchive.DISABLED))
        {
            assertThat(driver).as("started: its one thread's role, driver-shared, has no entry").isNotNull();
        }
        assertThatThrownBy(() -> MediaDriverService.launch(aeronDirectoryName(), ThreadingMode.DEDICATED,
            StreamLayout.IPC_TERM_LENGTH_DEFAULT, UntetheredTimeouts.DEFAULT, -1, false, affinity,
            EventArchive.DISABLED)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4095");
    }

    /**
     * Asserts the CPU list of each thread of those names. A thread pins itself once it runs, which may be after the
     * launch returns, so this waits for the expected lists (up to {@link Await#TIMEOUT_SECONDS}).
     */
    private static void assertCpus(final List<String> expected, final String... threadNames)
    {
        awaitTrue(() -> cpusOf(threadNames).equals(expected),
            () -> "CPUs " + cpusOf(threadNames) + " of threads " + List.of(threadNames) + " equal to " + expected);
    }

    private static List<String> cpusOf(final String... threadNames)
    {
        final List<ThreadAffinity.ThreadCpus> threads = ThreadAffinity.describeThreads();
        return List.of(threadNames).stream()
            .map((name) -> threads.stream().filter((thread) -> thread.name().equals(name))
                .map(ThreadAffinity.ThreadCpus::cpuList).findFirst().orElse("no thread " + name))
            .toList();
    }

    private static ThreadAffinity affinity(final String value)
    {
        return ThreadAffinity.fromSettings(
            new Settings(Map.of(Settings.environmentName(ThreadAffinity.THREAD_AFFINITY_PROP_NAME), value)));
    }

    private static String aeronDirectoryName()
    {
        return new File(System.getProperty("java.io.tmpdir"), "bourse-driver-affinity-" + UUID.randomUUID()).getPath();
    }

    private static void assumeCpusZeroAndOne() throws IOException
    {
        final Path status = Path.of("/proc/self/status");
        assumeTrue(Files.exists(status), "thread affinity is Linux only");
        assumeTrue(Files.readAllLines(status).stream().anyMatch((line) -> line.matches("Cpus_allowed_list:\t0-\\d+.*")),
            "this process may run on CPUs 0 and 1");
    }
}
