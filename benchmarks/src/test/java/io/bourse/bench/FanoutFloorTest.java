package io.bourse.bench;

import io.bourse.common.aeron.ThreadAffinity;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.time.MidnightNanoClock;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fanout benchmark's floor over real loopback subscribers: what it does when one stops reading, and where its
 * writing threads run.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a floor stuck on a socket ignores interrupts
class FanoutFloorTest
{
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT");
    private static final int SUBSCRIBER_RECEIVE_BUFFER = 4096;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(opened.reversed());
    }

    @Test
    void shouldFailThePublishWhenASubscriberStopsReadingInsteadOfWritingToItForever() throws IOException
    {
        final List<Credentials.User> users = List.of(new Credentials.User("sub000", "pw0", "FIRM"));
        final FanoutFloor floor = new FanoutFloor(
            1, users, SYMBOLS, SymbolDirectory.parse("AAPL@0,MSFT@1"), TimeUnit.MILLISECONDS.toNanos(500),
            ThreadAffinity.NONE);
        opened.add(floor);
        final MidnightNanoClock clock = new MidnightNanoClock();
        opened.add(ItchSubscriber.login(floor.port(), users.get(0), clock, SUBSCRIBER_RECEIVE_BUFFER));
        floor.prepare();

        // Never read: 100,000 messages a second fill the socket's buffers within a second or two.
        assertThatThrownBy(() -> floor.publish(clock, clock.nanosSinceMidnight(), 10_000, 10_000_000))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("a subscriber's socket took nothing for");
    }

    /**
     * Writing thread k runs where the fanout's worker k is pinned: the thread affinity's {@code fanout-worker-k}, here
     * the first CPU this process may run on.
     */
    @Test
    void shouldPinEachWritingThreadToTheCpusOfItsFanoutWorker() throws IOException
    {
        final Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status), "Linux only");
        final String cpu = Files.readAllLines(status).stream()
            .filter((line) -> line.startsWith("Cpus_allowed_list:"))
            .map((line) -> line.substring(line.indexOf(':') + 1).strip().split("[-,]")[0])
            .findFirst().orElseThrow();
        final List<Credentials.User> users = List.of(new Credentials.User("sub000", "pw0", "FIRM"));
        final String setting = Settings.environmentName(ThreadAffinity.THREAD_AFFINITY_PROP_NAME);
        final ThreadAffinity affinity =
            ThreadAffinity.fromSettings(new Settings(Map.of(setting, FanoutBenchmark.WORKER_THREAD + "0=" + cpu)));
        final FanoutFloor floor = new FanoutFloor(
            1, users, SYMBOLS, SymbolDirectory.parse("AAPL@0,MSFT@1"), TimeUnit.MILLISECONDS.toNanos(500), affinity);
        opened.add(floor);
        final MidnightNanoClock clock = new MidnightNanoClock();
        opened.add(ItchSubscriber.login(floor.port(), users.get(0), clock, SUBSCRIBER_RECEIVE_BUFFER));

        floor.prepare();

        assertThat(ThreadAffinity.describeThreads())
            .filteredOn((thread) -> thread.name().equals(FanoutFloor.THREAD + "0"))
            .singleElement()
            .extracting(ThreadAffinity.ThreadCpus::cpuList)
            .isEqualTo(cpu);
    }
}
