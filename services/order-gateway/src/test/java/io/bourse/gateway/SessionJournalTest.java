package io.bourse.gateway;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionJournalTest
{
    private static final int MESSAGES = 3_000;

    @TempDir
    private Path directory;

    @Test
    void shouldReadEveryMessageBySequenceNumberInAnyOrderWhenAppended() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = appendMessages(journal, MESSAGES);
            journal.sync();

            assertThat(journal.count()).isEqualTo(MESSAGES);
            assertThat(journal.durableCount()).isEqualTo(MESSAGES);
            assertThat(read(journal, 1, MESSAGES)).containsExactlyElementsOf(expected);
            for (int sequenceNumber = MESSAGES; sequenceNumber >= 1; sequenceNumber -= 7)
            {
                assertThat(bytes(journal.message(sequenceNumber))).isEqualTo(expected.get(sequenceNumber - 1));
            }
            assertThat(recordsOnDisk()).isEqualTo(fileLength(expected));
        }
        assertThat(Files.size(file())).isEqualTo(fileLength(expected));
    }

    @Test
    void shouldWriteAcrossMappedWindowsAndCutTheFileToTheRecordsWhenClosed() throws IOException
    {
        final int messages = 2 * SessionJournal.WINDOW_LENGTH / SessionJournal.MAX_MESSAGE_LENGTH + 100;
        final List<byte[]> expected = new ArrayList<>();
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            for (int i = 1; i <= messages; i++)
            {
                expected.add(append(journal, SessionJournal.MAX_MESSAGE_LENGTH - i % 5, (byte)i));
                if (i % 10 == 0)
                {
                    journal.sync();
                }
            }
            journal.sync();

            assertThat(Files.size(file())).isGreaterThan(2L * SessionJournal.WINDOW_LENGTH);
            assertThat(recordsOnDisk()).isEqualTo(fileLength(expected));
        }
        assertThat(Files.size(file())).isEqualTo(fileLength(expected));
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(messages);
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(read(journal, 1, messages)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldCutTheZeroFilledTailWithoutCountingItTornWhenOpenedAfterACrash() throws IOException
    {
        final Path copy = directory.resolve("crashed" + JournalStore.SUFFIX);
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = appendMessages(journal, 100);
            journal.sync();
            // What a crash of the process leaves: the records in the page cache, the file as long as the zero fill.
            Files.copy(file(), copy);
        }
        assertThat(Files.size(copy)).isGreaterThan(fileLength(expected));

        try (SessionJournal journal = SessionJournal.open(copy, JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(100);
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(Files.size(copy)).isEqualTo(fileLength(expected));
            assertThat(read(journal, 1, 100)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldRefuseToOpenAJournalThatIsOpenAlready() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            final List<byte[]> expected = new ArrayList<>(appendMessages(journal, 10));
            journal.sync();

            assertThatThrownBy(() -> open(JournalSync.NONE)).isInstanceOf(OverlappingFileLockException.class);
            expected.add(append(journal, 20, (byte)'L'));
            journal.sync();
            assertThat(recordsOnDisk()).isEqualTo(fileLength(expected));
        }
    }

    @Test
    void shouldReadFromAnySequenceNumberToTheEndWhenReplaying() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            final List<byte[]> expected = appendMessages(journal, MESSAGES);

            assertThat(read(journal, 1_234, MESSAGES)).containsExactlyElementsOf(expected.subList(1_233, MESSAGES));
            assertThat(read(journal, MESSAGES, MESSAGES)).containsExactly(expected.get(MESSAGES - 1));
            assertThat(read(journal, 1, 1)).containsExactly(expected.get(0));
        }
    }

    @Test
    void shouldContinueTheSequenceAfterTheLastMessageWhenReopened() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = new ArrayList<>(appendMessages(journal, 100));
            journal.sessionIndex(7);
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(100);
            assertThat(journal.durableCount()).isEqualTo(100);
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(journal.sessionIndex()).isEqualTo(7);
            assertThat(read(journal, 1, 100)).containsExactlyElementsOf(expected);

            expected.add(append(journal, 33, (byte)'N'));
            assertThat(journal.count()).isEqualTo(101);
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(read(journal, 1, 101)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldTruncateTornLastRecordWhenReopened() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = new ArrayList<>(appendMessages(journal, 10));
        }
        final long intact = fileLength(expected.subList(0, 9));
        truncate(intact + SessionJournal.RECORD_HEADER_LENGTH + 2);

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(9);
            assertThat(journal.truncatedBytes()).isEqualTo(SessionJournal.RECORD_HEADER_LENGTH + 2);
            assertThat(Files.size(journal.file())).isEqualTo(intact);
            assertThat(read(journal, 1, 9)).containsExactlyElementsOf(expected.subList(0, 9));
            expected.set(9, append(journal, 5, (byte)'T'));
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(read(journal, 1, 10)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldTruncateRecordWhoseHeaderIsCutShortWhenReopened() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            appendMessages(journal, 3);
        }
        final long intact = Files.size(file());
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.APPEND))
        {
            channel.write(ByteBuffer.wrap(new byte[] {5, 0, 0, 0, 1}));
        }

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(3);
            assertThat(journal.truncatedBytes()).isEqualTo(5);
            assertThat(Files.size(file())).isEqualTo(intact);
        }
    }

    @Test
    void shouldTruncateFromRecordThatFailsItsChecksumWhenReopened() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = appendMessages(journal, 10);
        }
        final long eighth = fileLength(expected.subList(0, 7));
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(new byte[] {(byte)0xFF}), eighth + SessionJournal.RECORD_HEADER_LENGTH);
        }

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(7);
            assertThat(journal.truncatedBytes()).isEqualTo(fileLength(expected) - eighth);
            assertThat(read(journal, 1, 7)).containsExactlyElementsOf(expected.subList(0, 7));
        }
    }

    @Test
    void shouldStartEmptyWhenFileHeaderIsTorn() throws IOException
    {
        Files.write(file(), new byte[] {'B', 'J', 'N'});

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isZero();
            assertThat(journal.truncatedBytes()).isEqualTo(3);
            assertThat(Files.size(file())).isEqualTo(SessionJournal.FILE_HEADER_LENGTH);
        }
    }

    @Test
    void shouldStartEmptyWhenFileIsAllZeros() throws IOException
    {
        Files.write(file(), new byte[40]);

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isZero();
            assertThat(journal.truncatedBytes()).isEqualTo(40);
            assertThat(Files.size(file())).isEqualTo(SessionJournal.FILE_HEADER_LENGTH);
            append(journal, 3, (byte)'Z');
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(1);
            assertThat(journal.truncatedBytes()).isZero();
        }
    }

    @Test
    void shouldRefuseFileThatIsNotAJournal() throws IOException
    {
        Files.write(file(), "username,password,firm\n".getBytes());

        assertThatThrownBy(() -> open(JournalSync.NONE))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("not a session journal of version 1 or 2");
        assertThat(Files.readString(file())).isEqualTo("username,password,firm\n");
    }

    @Test
    void shouldCountMessagesDurableOnlyAfterSyncWhenBatch() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.BATCH))
        {
            append(journal, 10, (byte)1);
            append(journal, 10, (byte)2);

            assertThat(journal.count()).isEqualTo(2);
            assertThat(journal.durableCount()).isZero();
            assertThat(journal.sync()).isTrue();
            assertThat(journal.durableCount()).isEqualTo(2);
            assertThat(journal.sync()).isFalse();
        }
    }

    @Test
    void shouldWriteTheBatchOnSyncWithoutForcingWhenNone() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            final List<byte[]> expected = List.of(append(journal, 10, (byte)1), append(journal, 20, (byte)2));

            assertThat(journal.durableCount()).isZero();
            assertThat(recordsOnDisk()).isEqualTo(SessionJournal.FILE_HEADER_LENGTH);
            assertThat(journal.sync()).isFalse();
            assertThat(journal.durableCount()).isEqualTo(2);
            assertThat(recordsOnDisk()).isEqualTo(fileLength(expected));
            assertThat(journal.sync()).isFalse();
        }
    }

    @Test
    void shouldTakeMessagesOfOneToMaxLengthOnly() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            final byte[] longest = append(journal, SessionJournal.MAX_MESSAGE_LENGTH, (byte)'L');
            final byte[] shortest = append(journal, 1, (byte)'S');

            assertThatThrownBy(() -> journal.claim(SessionJournal.MAX_MESSAGE_LENGTH + 1))
                .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> journal.claim(0)).isInstanceOf(IllegalArgumentException.class);
            assertThat(read(journal, 1, 2)).containsExactly(longest, shortest);
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(2);
            assertThat(bytes(journal.message(1))).hasSize(SessionJournal.MAX_MESSAGE_LENGTH);
        }
    }

    @Test
    void shouldNumberAndReplayOnlyTheMessagesWhenPrivateRecordsAreBetweenThem() throws IOException
    {
        final List<Record> expected = new ArrayList<>();
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            for (int i = 1; i <= MESSAGES; i++)
            {
                expected.add(i % 3 == 0 ?
                    new Record(true, appendPrivate(journal, 1 + i % 71, (byte)i)) :
                    new Record(false, append(journal, 1 + i % 97, (byte)i)));
            }
            journal.sync();

            assertThat(journal.count()).isEqualTo(MESSAGES - MESSAGES / 3);
            assertThat(read(journal, 1, journal.count())).containsExactlyElementsOf(messages(expected));
            assertThat(records(journal)).containsExactlyElementsOf(expected);
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(MESSAGES - MESSAGES / 3);
            assertThat(journal.truncatedBytes()).isZero();
            assertThat(read(journal, 1, journal.count())).containsExactlyElementsOf(messages(expected));
            assertThat(records(journal)).containsExactlyElementsOf(expected);
        }
    }

    /**
     * Beyond the ring of recent positions a message is found from the sparse index by reading forward over the private
     * records and messages after the index's entry, in the file or still in the batch (tiny messages: a batch holds
     * more of them than the ring), in any order and in sequence, and so again after a reopen.
     */
    @Test
    void shouldFindEveryMessageInAnyOrderBeyondTheRecentOnesWhenPrivateRecordsAreBetweenThem() throws IOException
    {
        final int records = 3 * SessionJournal.RECENT_CAPACITY + 5 * SessionJournal.SPARSE_INTERVAL + 7;
        final List<byte[]> expected = new ArrayList<>();
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            for (int i = 1; i <= records; i++)
            {
                if (i % 5 == 0 || i % 7 == 0)
                {
                    appendPrivate(journal, 1 + i % 3, (byte)i);
                }
                else
                {
                    expected.add(append(journal, 1 + i % 2, (byte)i));
                }
                if (i % 97 == 0)
                {
                    assertThat(bytes(journal.message(1 + i % expected.size()))).as("read while appending")
                        .isEqualTo(expected.get(i % expected.size()));
                }
            }
            assertThat(journal.count()).isGreaterThan(2 * SessionJournal.RECENT_CAPACITY);
            assertEveryMessageInShuffledOrder(journal, expected);
            journal.sync();
            assertEveryMessageInShuffledOrder(journal, expected);
        }
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(read(journal, 1, expected.size())).containsExactlyElementsOf(expected);
            assertThat(read(journal, 65, 700)).containsExactlyElementsOf(expected.subList(64, 700));
            assertEveryMessageInShuffledOrder(journal, expected);
        }
    }

    /**
     * The index of message positions takes 8 bytes per {@value SessionJournal#SPARSE_INTERVAL} messages of direct
     * memory, where it took 8 bytes per message (a day of a busy session held hundreds of MB until a garbage collection
     * found the closed day's pages).
     */
    @Test
    void shouldIndexOnePositionPerSparseIntervalOfMessagesInDirectMemory() throws IOException
    {
        final int messages = 300_000;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            append(journal, 8, (byte)1);
            System.gc();
            final long usedBefore = directMemoryUsed();
            for (int i = 2; i <= messages; i++)
            {
                final int offset = journal.claim(8);
                journal.buffer().putLong(offset, i);
                journal.commit(8);
                if (0 == i % 1_000)
                {
                    journal.sync();
                }
            }
            final long pages = (messages / SessionJournal.SPARSE_INTERVAL + 1023) / 1024;
            assertThat(journal.indexBytes()).isEqualTo(pages * 1024 * Long.BYTES);
            assertThat(directMemoryUsed() - usedBefore).as("direct memory taken while appending")
                .isLessThan(messages * (long)Long.BYTES / 8);
            assertThat(journal.message(123_457).duplicate().order(ByteOrder.nativeOrder()).getLong())
                .isEqualTo(123_457);
        }
    }

    @Test
    void shouldWritePrivateRecordsWhenSyncedAndForceThemWithTheNextMessage() throws IOException
    {
        try (SessionJournal journal = open(JournalSync.BATCH))
        {
            final byte[] record = appendPrivate(journal, 40, (byte)'P');

            // Into the mapping, where a crash of the process leaves it (an Order Sent record whose command the engine
            // may have taken), but not forced: nothing the client was sent depends on it yet.
            assertThat(journal.sync()).isFalse();
            assertThat(recordsOnDisk()).isEqualTo(
                SessionJournal.FILE_HEADER_LENGTH + SessionJournal.RECORD_HEADER_LENGTH + 40);

            final byte[] message = append(journal, 10, (byte)'M');
            assertThat(journal.sync()).isTrue();
            assertThat(recordsOnDisk()).isEqualTo(
                SessionJournal.FILE_HEADER_LENGTH + 2 * SessionJournal.RECORD_HEADER_LENGTH + 50);
            assertThat(records(journal)).containsExactly(new Record(true, record), new Record(false, message));
        }
    }

    @Test
    void shouldWritePrivateRecordsWhenClosed() throws IOException
    {
        final byte[] record;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            record = appendPrivate(journal, 72, (byte)'O');
        }

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isZero();
            assertThat(records(journal)).containsExactly(new Record(true, record));
        }
    }

    @Test
    void shouldTruncateFromPrivateRecordWhoseFlagIsFlipped() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = appendMessages(journal, 3);
            appendPrivate(journal, 16, (byte)'J');
            append(journal, 5, (byte)'A');
        }
        final long intact = fileLength(expected);
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(new byte[] {0}), intact + 3);
        }

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(journal.count()).isEqualTo(3);
            assertThat(Files.size(file())).isEqualTo(intact);
            assertThat(records(journal)).extracting(Record::bytes).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldReadVersionOneJournalAndMoveItToVersionTwoWhenOpened() throws IOException
    {
        final List<byte[]> expected;
        try (SessionJournal journal = open(JournalSync.NONE))
        {
            expected = appendMessages(journal, 20);
        }
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(new byte[] {1, 0, 0, 0}), 4);
        }

        try (SessionJournal journal = open(JournalSync.NONE))
        {
            assertThat(read(journal, 1, 20)).containsExactlyElementsOf(expected);
        }
        final ByteBuffer version = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.READ))
        {
            channel.read(version, 4);
        }
        assertThat(version.getInt(0)).isEqualTo(SessionJournal.VERSION);
    }

    private Path file()
    {
        return directory.resolve("demo01" + JournalStore.SUFFIX);
    }

    private SessionJournal open(final JournalSync sync) throws IOException
    {
        return SessionJournal.open(file(), sync);
    }

    /**
     * @return the end of the records in the file as a reader of the file sees them: after the last record before the
     * file's end or a length word of zero (the zero-filled space after the records).
     */
    private long recordsOnDisk() throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file())).order(ByteOrder.LITTLE_ENDIAN);
        int position = SessionJournal.FILE_HEADER_LENGTH;
        while (position + SessionJournal.RECORD_HEADER_LENGTH <= bytes.limit() && 0 != bytes.getInt(position))
        {
            position += SessionJournal.RECORD_HEADER_LENGTH + (bytes.getInt(position) & ~SessionJournal.PRIVATE_FLAG);
        }
        return position;
    }

    private void truncate(final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file(), StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
    }

    /** Messages of lengths 1..97 cycling, each filled with its sequence number's low byte. */
    private static List<byte[]> appendMessages(final SessionJournal journal, final int count) throws IOException
    {
        final List<byte[]> messages = new ArrayList<>();
        for (int i = 1; i <= count; i++)
        {
            messages.add(append(journal, 1 + i % 97, (byte)i));
        }
        return messages;
    }

    private static byte[] append(final SessionJournal journal, final int length, final byte value) throws IOException
    {
        final int offset = journal.claim(length);
        final byte[] message = new byte[length];
        for (int i = 0; i < length; i++)
        {
            message[i] = (byte)(value + i);
            journal.buffer().putByte(offset + i, message[i]);
        }
        final long sequenceNumber = journal.commit(length);
        assertThat(sequenceNumber).isEqualTo(journal.count());
        assertThat(bytes(journal.message(sequenceNumber))).isEqualTo(message);
        return message;
    }

    private static byte[] appendPrivate(final SessionJournal journal, final int length, final byte value)
        throws IOException
    {
        final int offset = journal.claim(length);
        final byte[] record = new byte[length];
        for (int i = 0; i < length; i++)
        {
            record[i] = (byte)(value - i);
            journal.buffer().putByte(offset + i, record[i]);
        }
        final long count = journal.count();
        journal.commitPrivate(length);
        assertThat(journal.count()).isEqualTo(count);
        return record;
    }

    /** A record as {@link SessionJournal#read} hands it over. */
    record Record(boolean isPrivate, byte[] bytes)
    {
        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Record record && isPrivate == record.isPrivate &&
                Arrays.equals(bytes, record.bytes);
        }

        @Override
        public int hashCode()
        {
            return 31 * Boolean.hashCode(isPrivate) + Arrays.hashCode(bytes);
        }

        @Override
        public String toString()
        {
            return (isPrivate ? "private " : "message ") + Arrays.toString(bytes);
        }
    }

    /** @return every record of the journal, messages and private records, in order, copied. */
    static List<Record> records(final SessionJournal journal) throws IOException
    {
        final List<Record> records = new ArrayList<>();
        journal.read(new SessionJournal.RecordHandler()
        {
            public void onMessage(final DirectBuffer buffer, final int offset, final int length)
            {
                records.add(new Record(false, copy(buffer, offset, length)));
            }

            public void onPrivateRecord(final DirectBuffer buffer, final int offset, final int length)
            {
                records.add(new Record(true, copy(buffer, offset, length)));
            }
        });
        return records;
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static List<byte[]> messages(final List<Record> records)
    {
        return records.stream().filter((record) -> !record.isPrivate()).map(Record::bytes).toList();
    }

    private static void assertEveryMessageInShuffledOrder(final SessionJournal journal, final List<byte[]> expected)
        throws IOException
    {
        final List<Integer> sequenceNumbers = new ArrayList<>();
        for (int sequenceNumber = 1; sequenceNumber <= expected.size(); sequenceNumber++)
        {
            sequenceNumbers.add(sequenceNumber);
        }
        Collections.shuffle(sequenceNumbers, new Random(42));
        for (final int sequenceNumber : sequenceNumbers)
        {
            assertThat(bytes(journal.message(sequenceNumber))).as("message %d", sequenceNumber)
                .isEqualTo(expected.get(sequenceNumber - 1));
        }
    }

    private static long directMemoryUsed()
    {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter((pool) -> "direct".equals(pool.getName())).findFirst().orElseThrow().getMemoryUsed();
    }

    private static List<byte[]> read(final SessionJournal journal, final long from, final long to) throws IOException
    {
        final List<byte[]> messages = new ArrayList<>();
        for (long sequenceNumber = from; sequenceNumber <= to; sequenceNumber++)
        {
            messages.add(bytes(journal.message(sequenceNumber)));
        }
        return messages;
    }

    private static byte[] bytes(final ByteBuffer message)
    {
        final byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        return bytes;
    }

    private static long fileLength(final List<byte[]> messages)
    {
        long length = SessionJournal.FILE_HEADER_LENGTH;
        for (final byte[] message : messages)
        {
            length += SessionJournal.RECORD_HEADER_LENGTH + message.length;
        }
        return length;
    }
}
