package io.bourse.common.aeron;

import io.aeron.driver.status.StreamCounter;
import org.agrona.concurrent.status.CountersReader;

/**
 * Test fixture: counts a media driver's counters of one type for one stream, such as the subscriber positions (one per
 * image, {@link io.aeron.driver.status.SubscriberPos}) or the publisher limits (one per publication, gone once the
 * driver has freed a closed one, {@link io.aeron.driver.status.PublisherLimit}), for tests that wait on what the driver
 * has done.
 */
public final class StreamCounters
{
    private StreamCounters()
    {
    }

    /**
     * @param counters the driver's counters, read through any client of it.
     * @param streamId the stream.
     * @param typeId   the counters' type id, e.g. {@code SubscriberPos.SUBSCRIBER_POSITION_TYPE_ID}.
     * @return how many counters of that type the stream has now.
     */
    public static int count(final CountersReader counters, final int streamId, final int typeId)
    {
        final int[] count = {0};
        counters.forEach((counterId, counterTypeId, keyBuffer, label) ->
        {
            if (typeId == counterTypeId && streamId == keyBuffer.getInt(StreamCounter.STREAM_ID_OFFSET))
            {
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * @param counters the driver's counters, read through any client of it.
     * @param streamId the stream.
     * @param typeId   the counter's type id, e.g. {@code PublisherLimit.PUBLISHER_LIMIT_TYPE_ID}.
     * @return the value of the stream's first counter of that type, e.g. its one publication's limit (a position in
     *         bytes).
     * @throws IllegalStateException when the stream has no counter of that type.
     */
    public static long value(final CountersReader counters, final int streamId, final int typeId)
    {
        final int[] found = {CountersReader.NULL_COUNTER_ID};
        counters.forEach((counterId, counterTypeId, keyBuffer, label) ->
        {
            if (CountersReader.NULL_COUNTER_ID == found[0] && typeId == counterTypeId &&
                streamId == keyBuffer.getInt(StreamCounter.STREAM_ID_OFFSET))
            {
                found[0] = counterId;
            }
        });
        if (CountersReader.NULL_COUNTER_ID == found[0])
        {
            throw new IllegalStateException("no counter of type " + typeId + " for stream " + streamId);
        }
        return counters.getCounterValue(found[0]);
    }
}
