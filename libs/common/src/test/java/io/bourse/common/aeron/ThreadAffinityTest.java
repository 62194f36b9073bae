package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ThreadAffinityTest
{
    private static final BitSet EIGHT_CPUS = cpus(0, 1, 2, 3, 4, 5, 6, 7);

    @Test
    void shouldMapEachRoleToItsCpusWhenGivenNamesListsAndRanges()
    {
        final ThreadAffinity affinity = ThreadAffinity.parse(
            " order-gateway=0 ; matching-engine-0=1-3;md-publisher=0,2 ;fanout-worker-0=0-1,4,6-7;", EIGHT_CPUS);

        assertThat(List.of(affinity.cpus("order-gateway"), affinity.cpus("matching-engine-0"),
            affinity.cpus("md-publisher"), affinity.cpus("fanout-worker-0"), affinity.cpus("matching-engine-1")))
            .containsExactly(cpus(0), cpus(1, 2, 3), cpus(0, 2), cpus(0, 1, 4, 6, 7), new BitSet());
        assertThat(affinity.isEmpty()).isFalse();
    }

    @Test
    void shouldPreferExactNameThenLongestPrefixWhenSeveralEntriesMatch()
    {
        final ThreadAffinity affinity = ThreadAffinity.parse(
            "*=7;fanout-*=6;fanout-worker-*=5;fanout-worker-1=4", EIGHT_CPUS);

        assertThat(List.of(affinity.cpus("fanout-worker-1"), affinity.cpus("fanout-worker-2"),
            affinity.cpus("fanout-dispatcher"), affinity.cpus("order-gateway")))
            .containsExactly(cpus(4), cpus(5), cpus(6), cpus(7));
    }

    @Test
    void shouldPinCompositeThreadByItsFirstAgentWhenRoleNameIsAgronaComposite()
    {
        final ThreadAffinity affinity = ThreadAffinity.parse("md-publisher=2;fanout-*=3;md-mold=4", EIGHT_CPUS);

        assertThat(List.of(affinity.cpus("[md-publisher,md-mold]"), affinity.cpus("[fanout-dispatcher]"),
            affinity.cpus("[sender,receiver]")))
            .containsExactly(cpus(2), cpus(3), new BitSet());
    }

    @Test
    void shouldWriteEntriesBackInSettingSyntax()
    {
        final ThreadAffinity affinity = ThreadAffinity.parse("w-*=1-3,5;b=0;a=0,2;*=4", EIGHT_CPUS);

        assertThat(affinity).hasToString("a=0,2;b=0;w-*=1-3,5;*=4");
        assertThat(ThreadAffinity.parse(affinity.toString(), EIGHT_CPUS)).hasToString(affinity.toString());
    }

    @Test
    void shouldPinNothingWhenSettingIsEmptyOrUnset()
    {
        assertThat(ThreadAffinity.fromSettings(new Settings(Map.of()))).isSameAs(ThreadAffinity.NONE);
        assertThat(ThreadAffinity.fromSettings(settings("  "))).isSameAs(ThreadAffinity.NONE);
        assertThat(ThreadAffinity.parse(" ; ", EIGHT_CPUS)).isSameAs(ThreadAffinity.NONE);
        assertThat(ThreadAffinity.NONE.isEmpty()).isTrue();
        assertThat(ThreadAffinity.NONE.cpus("order-gateway")).isEqualTo(new BitSet());
        assertThat(ThreadAffinity.NONE).hasToString("");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a=0;order-gateway|order-gateway|expected role=cpus",
        "=1|=1|a role is a name",
        "fan*out=1|fan*out=1|a role is a name",
        "a=|a=|a CPU list is like",
        "a=x|a=x|a CPU list is like",
        "a=1,|a=1,|a CPU list is like",
        "a=-1|a=-1|a CPU list is like",
        "a=1-|a=1-|a CPU list is like",
        "a=3-1|a=3-1|empty CPU range 3-1",
        "a=9000|a=9000|CPU 9000 is above 8191",
        "a=0-99999999999|a=0-99999999999|a CPU list is like",
        "w-*=1;b=2;w-*=3|w-*=3|role w-* is given twice",
    })
    void shouldNameSettingAndEntryWhenEntryIsBad(final String value, final String entry, final String reason)
    {
        assertThatThrownBy(() -> ThreadAffinity.parse(value, EIGHT_CPUS))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("bourse.thread.affinity: bad entry \"" + entry + "\": ")
            .hasMessageContaining(reason);
    }

    @Test
    void shouldNameEntryWhenRoleOfThisProcessIsGivenCpusOutsideItsOwn()
    {
        final ThreadAffinity affinity = ThreadAffinity.parse("order-gateway=6-9,12;matching-engine-0=1", EIGHT_CPUS);

        assertThat(affinity.cpus("matching-engine-0")).isEqualTo(cpus(1));
        assertThatThrownBy(() -> affinity.cpus("order-gateway"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("bourse.thread.affinity: bad entry \"order-gateway=6-9,12\": CPUs 8-9,12 are not among " +
                "those this process may run on (0-7)");
        assertThatThrownBy(() -> affinity.threadFactory("order-gateway")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AgentLaunch.start(
            new ProbeAgent("order-gateway", new CompletableFuture<>()), new BackoffIdleStrategy(), affinity,
            new AtomicLong()))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCheckCpusAgainstThoseOfThisProcessWhenReadFromSettings()
    {
        assumeLinux();
        final String processCpus = cpuList(Path.of("/proc/self/status"));
        final ThreadAffinity affinity = ThreadAffinity.fromSettings(settings("order-gateway=8191"));

        assertThatThrownBy(() -> affinity.cpus("order-gateway"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("bourse.thread.affinity: bad entry \"order-gateway=8191\": CPUs 8191 are not among those " +
                "this process may run on (" + processCpus + ")");
    }

    @Test
    @Timeout(10)
    void shouldRunAgentOnlyOnCpuZeroAndDescribeItWhenItsRoleIsPinnedToZero() throws Exception
    {
        assumeLinux();
        final String role = "pinned-agent";
        final CompletableFuture<String> cpusSeenInDoWork = new CompletableFuture<>();
        final ThreadAffinity affinity = ThreadAffinity.fromSettings(settings(role + "=0"));

        try (AgentRunner runner = AgentLaunch.start(
            new ProbeAgent(role, cpusSeenInDoWork), new BackoffIdleStrategy(), affinity, new AtomicLong()))
        {
            assertThat(cpusSeenInDoWork.get(5, TimeUnit.SECONDS)).isEqualTo("0");
            assertThat(ThreadAffinity.describeThreads())
                .filteredOn((thread) -> thread.name().equals(role))
                .singleElement()
                .extracting(ThreadAffinity.ThreadCpus::cpuList)
                .isEqualTo("0");
            assertThat(runner.thread().getName()).isEqualTo(role);
        }
    }

    @Test
    @Timeout(10)
    void shouldLeaveAgentOnProcessCpusWhenItsRoleIsNotPinned() throws Exception
    {
        assumeLinux();
        final CompletableFuture<String> cpusSeenInDoWork = new CompletableFuture<>();
        final ThreadAffinity affinity = ThreadAffinity.fromSettings(settings("other-role=0"));

        try (AgentRunner ignored = AgentLaunch.start(
            new ProbeAgent("free-agent", cpusSeenInDoWork), new BackoffIdleStrategy(), affinity, new AtomicLong()))
        {
            assertThat(cpusSeenInDoWork.get(5, TimeUnit.SECONDS)).isEqualTo(cpuList(Path.of("/proc/self/status")));
        }
    }

    @Test
    @Timeout(10)
    void shouldPinSharedThreadByItsOwnRoleWhenAgentsJoinIt() throws Exception
    {
        assumeLinux();
        final CompletableFuture<String> cpusSeenInDoWork = new CompletableFuture<>();
        final ThreadAffinity affinity = ThreadAffinity.fromSettings(settings("exchange=0;joiner=1"));

        try (SharedAgentThread thread =
            new SharedAgentThread("exchange", new BackoffIdleStrategy(), affinity, new AtomicLong()))
        {
            thread.run(new ProbeAgent("joiner", cpusSeenInDoWork), null, affinity, new AtomicLong());

            assertThat(cpusSeenInDoWork.get(5, TimeUnit.SECONDS)).isEqualTo("0");
        }
    }

    @Test
    void shouldListEveryThreadOfThisJvmWithItsCpusWhenDescribing()
    {
        assumeLinux();

        final List<ThreadAffinity.ThreadCpus> threads = ThreadAffinity.describeThreads();

        assertThat(threads).hasSizeGreaterThan(1).allSatisfy((thread) ->
        {
            assertThat(thread.name()).isNotEmpty();
            assertThat(thread.cpuList()).matches("[0-9,-]+");
        });
        assertThat(threads).extracting(ThreadAffinity.ThreadCpus::threadId).isSorted().doesNotHaveDuplicates();
        assertThat(threads).extracting(ThreadAffinity.ThreadCpus::name).contains("java");
    }

    private static void assumeLinux()
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/status")), "thread affinity is Linux only");
        assumeTrue(cpuList(Path.of("/proc/self/status")).startsWith("0"), "this process may run on CPU 0");
    }

    private static Settings settings(final String affinity)
    {
        return new Settings(Map.of(Settings.environmentName(ThreadAffinity.THREAD_AFFINITY_PROP_NAME), affinity));
    }

    private static BitSet cpus(final int... cpuIds)
    {
        final BitSet cpus = new BitSet();
        for (final int cpuId : cpuIds)
        {
            cpus.set(cpuId);
        }
        return cpus;
    }

    private static String cpuList(final Path status)
    {
        try
        {
            return Files.readAllLines(status).stream()
                .filter((line) -> line.startsWith("Cpus_allowed_list:"))
                .map((line) -> line.substring("Cpus_allowed_list:".length()).strip())
                .findFirst()
                .orElseThrow();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Reads, from its first duty cycle, the CPUs the kernel lets the thread running it use. */
    private static final class ProbeAgent implements Agent
    {
        private final String roleName;
        private final CompletableFuture<String> cpusSeen;

        ProbeAgent(final String roleName, final CompletableFuture<String> cpusSeen)
        {
            this.roleName = roleName;
            this.cpusSeen = cpusSeen;
        }

        public int doWork()
        {
            cpusSeen.complete(cpuList(Path.of("/proc/thread-self/status")));
            return 0;
        }

        public String roleName()
        {
            return roleName;
        }
    }
}
