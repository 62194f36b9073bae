package io.bourse.mdpublisher;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Answers to requests, as MoldUDP64 Message Blocks, from a store of numbered messages. */
class MoldMessageStoreTest
{
    private static final int MAX_MESSAGE_LENGTH = 44;

    private final ByteBuffer response = ByteBuffer.allocate(1420);

    @TempDir
    private Path dir;

    /** A run opens a store per day's session: closing one gives its memory back at once, without a collection. */
    @Test
    void shouldFreeTheMemoryOfItsSlotsWhenClosed()
    {
        final MoldMessageStore store = new MoldMessageStore(100_000, MAX_MESSAGE_LENGTH, 1400);
        final long slotsBytes = 100_000L * (2 + MAX_MESSAGE_LENGTH);
        final long usedBefore = directMemoryUsed();

        store.close();
        store.close();

        assertThat(usedBefore - directMemoryUsed()).as("direct memory given back").isEqualTo(slotsBytes);
        assertThat(store.get(response, 1, 1)).as("nothing read from freed memory").isZero();
        assertThatThrownBy(() -> store.append(ByteBuffer.wrap(new byte[] {'S'})))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldNumberMessagesFromOne()
    {
        final MoldMessageStore store = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 1400);

        assertThat(store.nextSequenceNumber()).isEqualTo(1);
        assertThat(store.firstSequenceNumber()).isEqualTo(1);
        assertThat(store.append(message("A1"))).isEqualTo(1);
        assertThat(store.append(message("B2"))).isEqualTo(2);
        assertThat(store.nextSequenceNumber()).isEqualTo(3);
        assertThat(store.firstSequenceNumber()).isEqualTo(1);
    }

    @Test
    void shouldAnswerWithMessageBlocksFromTheRequestedSequenceNumber()
    {
        final MoldMessageStore store = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 1400);
        store.append(message("A1"));
        store.append(message("B2B2"));
        store.append(message("C3"));
        response.position(20);

        assertThat(store.get(response, 2, 2)).isEqualTo(2);
        // Message Length (2 bytes, big-endian) then Message Data, per message
        assertThat(written(20)).isEqualTo(hex("0002 B2B2 0001 C3"));
    }

    @Test
    void shouldStopAtTheLastMessageSent()
    {
        final MoldMessageStore store = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 1400);
        store.append(message("A1"));
        store.append(message("B2"));

        assertThat(store.get(response, 2, 65534)).isEqualTo(1);
        assertThat(written(0)).isEqualTo(hex("0001 B2"));
    }

    @Test
    void shouldAnswerNothingForMessagesNoLongerKeptOrNotYetSent()
    {
        final MoldMessageStore store = new MoldMessageStore(4, MAX_MESSAGE_LENGTH, 1400);
        for (int i = 1; i <= 6; i++)
        {
            store.append(message("0" + i));
        }

        assertThat(store.firstSequenceNumber()).isEqualTo(3);
        assertThat(store.get(response, 2, 3)).isZero();
        assertThat(store.get(response, 7, 1)).isZero();
        assertThat(store.get(response, 0, 1)).isZero();
        assertThat(store.get(response, 3, 0)).isZero();
        assertThat(response.position()).isZero();

        assertThat(store.get(response, 3, 10)).isEqualTo(4);
        assertThat(written(0)).isEqualTo(hex("0001 03 0001 04 0001 05 0001 06"));
    }

    @Test
    void shouldKeepTheNewestMessagesWhenWrappingAround()
    {
        final MoldMessageStore store = new MoldMessageStore(3, MAX_MESSAGE_LENGTH, 1400);
        for (int i = 1; i <= 7; i++)
        {
            store.append(message("0" + i + "0" + i));
        }

        assertThat(store.get(response, 5, 3)).isEqualTo(3);
        assertThat(written(0)).isEqualTo(hex("0002 0505 0002 0606 0002 0707"));
    }

    @Test
    void shouldFillAResponseUpToTheMaximumPayloadExactly()
    {
        // Three 44-byte messages: 46-byte blocks; 92 bytes hold two, 91 only one.
        final MoldMessageStore exact = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 92);
        final MoldMessageStore short1 = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 91);
        for (int i = 0; i < 3; i++)
        {
            exact.append(ByteBuffer.allocate(MAX_MESSAGE_LENGTH));
            short1.append(ByteBuffer.allocate(MAX_MESSAGE_LENGTH));
        }

        assertThat(exact.get(response, 1, 3)).isEqualTo(2);
        assertThat(response.position()).isEqualTo(92);
        response.clear();
        assertThat(short1.get(response, 1, 3)).isEqualTo(1);
        assertThat(response.position()).isEqualTo(46);
    }

    @Test
    void shouldFillAtMostTheBufferLeft()
    {
        final MoldMessageStore store = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 1400);
        store.append(message("A1A1"));
        store.append(message("B2B2"));
        // Two 4-byte blocks: 7 bytes left hold one.
        response.limit(7);

        assertThat(store.get(response, 1, 2)).isEqualTo(1);
        assertThat(response.position()).isEqualTo(4);
    }

    @Test
    void shouldRefuseMessagesLongerThanTheSlots()
    {
        final MoldMessageStore store = new MoldMessageStore(8, 2, 1400);

        assertThatThrownBy(() -> store.append(message("A1A2A3"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.append(ByteBuffer.allocate(0))).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.nextSequenceNumber()).isEqualTo(1);
    }

    @Test
    void shouldLeaveTheAppendedMessagePositionUnchanged()
    {
        final MoldMessageStore store = new MoldMessageStore(8, MAX_MESSAGE_LENGTH, 1400);
        final ByteBuffer message = ByteBuffer.wrap(hex("FFA1B2FF")).position(1).limit(3);

        store.append(message);

        assertThat(message.position()).isEqualTo(1);
        assertThat(store.get(response, 1, 1)).isEqualTo(1);
        assertThat(written(0)).isEqualTo(hex("0002 A1B2"));
    }

    @Test
    void shouldAnswerRequestsOlderThanTheMemoryFromTheSessionFile() throws IOException
    {
        final int count = 3 * MoldSessionFile.INDEX_INTERVAL + 5;
        final MoldMessageStore store = new MoldMessageStore(4, MAX_MESSAGE_LENGTH, 1400,
            MoldSessionFile.create(dir, "S1/2", Long.MAX_VALUE), new MoldMetrics(new PrometheusRegistry()));
        for (int i = 1; i <= count; i++)
        {
            store.append(numbered(i));
        }
        assertThat(store.firstSequenceNumber()).as("in memory").isEqualTo(count - 3);

        for (final long first : new long[] {1, 2, 1023, 1024, 1025, 2048, 2049, count - 5, count - 3, count})
        {
            response.clear();
            final int answered = store.get(response, first, 40);
            final int expected = (int)Math.min(40, count - first + 1);
            assertThat(answered).as("from %d", first).isEqualTo(expected);
            assertThat(written(0)).as("from %d", first).isEqualTo(blocks(first, expected));
        }
        response.clear().limit(100);
        final int fitting = countFitting(7, 100);
        assertThat(store.get(response, 7, 40)).as("what fits the buffer left").isEqualTo(fitting);
        assertThat(written(0)).isEqualTo(blocks(7, fitting));
        response.clear();
        assertThat(store.get(response, count + 1, 1)).as("not yet sent").isZero();
        assertThat(store.get(response, 0, 1)).isZero();

        final Path file = store.sessionFilePath();
        assertThat(file.getFileName().toString()).startsWith("S1_2-").endsWith(MoldSessionFile.SUFFIX);
        store.close();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void shouldBackfillAWholeSessionFromTheSessionFileReadingItOnce() throws IOException
    {
        // Past the 1,024 entries of the index's write buffer (1,048,576 messages), so that it fills up once.
        final int count = 1024 * MoldSessionFile.INDEX_INTERVAL + 3 * MoldSessionFile.INDEX_INTERVAL + 5;
        final MoldSessionFile file = MoldSessionFile.create(dir, "S1", Long.MAX_VALUE);
        final MoldMessageStore store =
            new MoldMessageStore(4, MAX_MESSAGE_LENGTH, 1400, file, new MoldMetrics(new PrometheusRegistry()));
        long bytes = 0;
        for (int i = 1; i <= count; i++)
        {
            final ByteBuffer message = numbered(i);
            bytes += 2 + message.remaining();
            store.append(message);
        }

        long next = 1;
        int requests = 0;
        while (next <= count)
        {
            response.clear();
            final int answered = store.get(response, next, 65_535);
            assertThat(answered).as("from %d", next).isPositive();
            assertThat(written(0)).as("from %d", next).isEqualTo(blocks(next, answered));
            next += answered;
            requests++;
        }
        assertThat(requests).isGreaterThan(count / 200);
        // Each 16 KiB read starts at the first block the last one did not hold whole; one more at the file's end.
        assertThat(file.appenderReader().readCalls())
            .as("the data file read once, 16 KiB at a time, and one index entry")
            .isLessThanOrEqualTo(bytes / (16 * 1024 - 2 - MAX_MESSAGE_LENGTH) + 3);

        // A request a little past a response's end walks on from it; one far from any, from the index.
        for (final long first : new long[] {next - 100, 1_000_000, 1_048_577, 1_048_600, 1_049_000, 2, 1})
        {
            response.clear();
            final int answered = store.get(response, first, 30);
            assertThat(answered).as("from %d", first).isEqualTo((int)Math.min(30, count - first + 1));
            assertThat(written(0)).as("from %d", first).isEqualTo(blocks(first, answered));
        }
        store.close();
    }

    @Test
    void shouldKeepOnlyTheFirstMessagesInAFullSessionFile() throws IOException
    {
        // The file holds the first 10 messages' blocks exactly.
        final MoldMessageStore store = new MoldMessageStore(4, MAX_MESSAGE_LENGTH, 1400,
            MoldSessionFile.create(dir, "S1", blocks(1, 10).length), new MoldMetrics(new PrometheusRegistry()));
        for (int i = 1; i <= 20; i++)
        {
            store.append(numbered(i));
        }

        assertThat(store.get(response, 9, 5)).as("to the file's end").isEqualTo(2);
        assertThat(written(0)).isEqualTo(blocks(9, 2));
        response.clear();
        assertThat(store.get(response, 11, 1)).as("in neither").isZero();
        assertThat(store.get(response, 17, 10)).as("in memory").isEqualTo(4);
        store.close();
    }

    @Test
    void shouldDeleteTheSessionFilesOfProcessesNoLongerRunningWhenCreatingOne() throws IOException
    {
        final long pid = ProcessHandle.current().pid();
        // Above Linux's largest pid_max (4,194,304): no such process.
        final String ended = "0101000000-4194999" + MoldSessionFile.SUFFIX;
        final Path crashed = Files.createFile(dir.resolve(ended));
        final Path crashedIndex = Files.createFile(dir.resolve(ended + ".index"));
        final long parentPid = ProcessHandle.current().parent().orElseThrow().pid(); // the build's JVM, running
        final Path running = Files.createFile(dir.resolve("OTHER-" + parentPid + MoldSessionFile.SUFFIX));
        final Path other = Files.createFile(dir.resolve("notes.txt"));

        try (MoldSessionFile held = MoldSessionFile.create(dir, "HELD", 100);
            MoldSessionFile file = MoldSessionFile.create(dir, "S1", 100))
        {
            assertThat(crashed).doesNotExist();
            assertThat(crashedIndex).doesNotExist();
            assertThat(running).exists();
            assertThat(other).exists();
            assertThat(held.path()).as("this process's, held").exists();
            assertThat(file.path()).isEqualTo(dir.resolve("S1-" + pid + MoldSessionFile.SUFFIX));
        }
    }

    /**
     * A container's JVM gets the same process id at every start: the files of a run that crashed carry the id of the
     * run after it. Not held by this process, they are deleted. Before, the files of each crash were kept for good.
     */
    @Test
    void shouldDeleteTheSessionFilesLeftByAnEarlierProcessOfTheSameId() throws IOException
    {
        final String earlier = "0101000000-" + ProcessHandle.current().pid() + MoldSessionFile.SUFFIX;
        final Path crashed = Files.createFile(dir.resolve(earlier));
        final Path crashedIndex = Files.createFile(dir.resolve(earlier + ".index"));

        try (MoldSessionFile file = MoldSessionFile.create(dir, "S1", 100))
        {
            assertThat(crashed).doesNotExist();
            assertThat(crashedIndex).doesNotExist();
            assertThat(file.path()).exists();
        }
        assertThat(dir.resolve("S1-" + ProcessHandle.current().pid() + MoldSessionFile.SUFFIX)).doesNotExist();
    }

    @Test
    void shouldCountAndDropASessionFileThatFails() throws IOException
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        final MoldSessionFile file = MoldSessionFile.create(dir, "S1", Long.MAX_VALUE);
        final MoldMessageStore store =
            new MoldMessageStore(2, MAX_MESSAGE_LENGTH, 1400, file, new MoldMetrics(registry));
        for (int i = 1; i <= 3; i++)
        {
            store.append(numbered(i));
        }
        file.close(); // behind the store's back: the next read fails

        assertThat(store.get(response, 1, 1)).isZero();
        assertThat(Counters.value(registry, "bourse_md_mold_errors", null)).isOne();
        assertThat(store.sessionFilePath()).isNull();
        store.append(numbered(4));
        assertThat(store.get(response, 3, 2)).as("memory still answers").isEqualTo(2);
    }

    /** @return message {@code i}: its number, 4 bytes, then {@code i % 7} bytes of it again, so lengths vary. */
    private static ByteBuffer numbered(final int i)
    {
        final ByteBuffer message = ByteBuffer.allocate(Integer.BYTES + i % 7).putInt(i);
        while (message.hasRemaining())
        {
            message.put((byte)i);
        }
        return message.flip();
    }

    /** @return the Message Blocks of {@code count} numbered messages from {@code first}. */
    private static byte[] blocks(final long first, final int count)
    {
        final ByteBuffer blocks = ByteBuffer.allocate(count * (2 + MAX_MESSAGE_LENGTH));
        for (long i = first; i < first + count; i++)
        {
            final ByteBuffer message = numbered((int)i);
            blocks.putShort((short)message.remaining()).put(message);
        }
        return Arrays.copyOf(blocks.array(), blocks.position());
    }

    private static int countFitting(final long first, final int limit)
    {
        int bytes = 0;
        int count = 0;
        for (long i = first; bytes + 2 + numbered((int)i).remaining() <= limit; i++)
        {
            bytes += 2 + numbered((int)i).remaining();
            count++;
        }
        return count;
    }

    private static ByteBuffer message(final String hex)
    {
        return ByteBuffer.wrap(hex(hex));
    }

    private byte[] written(final int from)
    {
        final byte[] bytes = new byte[response.position() - from];
        response.get(from, bytes);
        return bytes;
    }

    private static byte[] hex(final String spaced)
    {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    private static long directMemoryUsed()
    {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter((pool) -> "direct".equals(pool.getName())).findFirst().orElseThrow().getMemoryUsed();
    }
}
