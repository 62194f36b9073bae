package io.bourse.common.aeron;

import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.client.RecordingDescriptorConsumer;

/**
 * Lists an Aeron Archive's recordings of one stream id, whatever their number: the archive answers a list request
 * with at most the count asked, so the catalog is read a page at a time, each page from the recording id after the
 * last one listed; each recording is handed on with the fields the services use.
 */
public final class StreamRecordings
{
    /** Descriptors asked for at a time. */
    private static final int PAGE = 100;

    private StreamRecordings()
    {
    }

    /** One recording of the stream, as the archive's catalog describes it. */
    @FunctionalInterface
    public interface RecordingConsumer
    {
        /**
         * @param recordingId   the archive's id of the recording.
         * @param sessionId     the Aeron session id of the recorded publication.
         * @param startPosition stream position the recording starts at, in bytes.
         * @param stopPosition  stream position it stopped at, in bytes, or {@link AeronArchive#NULL_POSITION} while
         *                      it records.
         */
        void onRecording(long recordingId, int sessionId, long startPosition, long stopPosition);
    }

    /**
     * @param client   connected to the archive.
     * @param streamId the stream whose recordings are listed, on any channel.
     * @param consumer called once per recording, in recording id order, on the calling thread.
     * @throws io.aeron.exceptions.AeronException when the archive does not answer.
     */
    public static void forEach(final AeronArchive client, final int streamId, final RecordingConsumer consumer)
    {
        final Pager pager = new Pager(consumer);
        int listed;
        do
        {
            listed = client.listRecordingsForUri(pager.lastRecordingId + 1, PAGE, "", streamId, pager);
        }
        while (PAGE == listed);
    }

    private static final class Pager implements RecordingDescriptorConsumer
    {
        private final RecordingConsumer consumer;
        private long lastRecordingId = -1;

        Pager(final RecordingConsumer consumer)
        {
            this.consumer = consumer;
        }

        @Override
        public void onRecordingDescriptor(
            final long controlSessionId, final long correlationId, final long recordingId,
            final long startTimestamp, final long stopTimestamp, final long startPosition, final long stopPosition,
            final int initialTermId, final int segmentFileLength, final int termBufferLength, final int mtuLength,
            final int sessionId, final int streamId, final String strippedChannel, final String originalChannel,
            final String sourceIdentity)
        {
            lastRecordingId = Math.max(lastRecordingId, recordingId);
            consumer.onRecording(recordingId, sessionId, startPosition, stopPosition);
        }
    }
}
