package io.bourse.common.aeron;

import io.aeron.Publication;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Offers a message to a publication, retrying through back pressure and admin actions for a bounded time, never an
 * unbounded spin. The number of back-pressured attempts is counted so it shows in the metrics.
 */
public final class BoundedOffer
{
    private final IdleStrategy idleStrategy;
    private final long maxRetries;
    private final AtomicLong backPressureCount = new AtomicLong();

    /**
     * @param idleStrategy how to wait between attempts.
     * @param maxRetries   attempts after the first before giving up.
     */
    public BoundedOffer(final IdleStrategy idleStrategy, final long maxRetries)
    {
        this.idleStrategy = idleStrategy;
        this.maxRetries = maxRetries;
    }

    /**
     * @param publication destination.
     * @param buffer      holds the message.
     * @param offset      of the message in the buffer.
     * @param length      of the message in bytes.
     * @return the new position (positive), or the last negative result of {@link Publication#offer} when the
     *         publication is not connected, closed, past its max position, or still back pressured after the retries.
     */
    public long offer(final Publication publication, final DirectBuffer buffer, final int offset, final int length)
    {
        long result = publication.offer(buffer, offset, length);
        if (result > 0)
        {
            return result;
        }
        idleStrategy.reset();
        for (long attempt = 0; attempt < maxRetries; attempt++)
        {
            if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION)
            {
                return result;
            }
            backPressureCount.incrementAndGet();
            idleStrategy.idle();
            result = publication.offer(buffer, offset, length);
            if (result > 0)
            {
                return result;
            }
        }
        return result;
    }

    /** @return how many attempts found the publication back pressured, since start. */
    public long backPressureCount()
    {
        return backPressureCount.get();
    }
}
