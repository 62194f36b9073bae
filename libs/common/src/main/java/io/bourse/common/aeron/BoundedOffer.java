package io.bourse.common.aeron;

import io.aeron.Publication;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Offers a message to a publication, retrying through back pressure for a bounded time, never an unbounded spin. The
 * number of back-pressured attempts is counted so it shows in the metrics. A term rotation is not back pressure: the
 * offer that reaches the end of a term pads it, rotates the log and returns {@link Publication#ADMIN_ACTION}, and the
 * next attempt goes into the new term, so that offer is made again at once ({@link #offerAcrossRotation}): not
 * counted, not one of the retries, and without the idle strategy's wait (a yield, which on a busy core can hand the
 * thread's time to another one).
 */
public final class BoundedOffer
{
    private final IdleStrategy idleStrategy;
    private final long maxRetries;
    private final AtomicLong backPressureCount = new AtomicLong();

    /**
     * @param idleStrategy how to wait between attempts.
     * @param maxRetries   attempts after the first before giving up, each after the idle strategy's wait: through back
     *                     pressure, or a concurrent publication's rotation another thread has not finished.
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
        long result = offerAcrossRotation(publication, buffer, offset, length);
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
            if (Publication.BACK_PRESSURED == result)
            {
                backPressureCount.incrementAndGet();
            }
            idleStrategy.idle();
            result = offerAcrossRotation(publication, buffer, offset, length);
            if (result > 0)
            {
                return result;
            }
        }
        return result;
    }

    /**
     * Offers a message once, and once more at once when that offer rotated the term ({@link Publication#ADMIN_ACTION}:
     * the message did not fit in the rest of the term, which the call padded before moving the log to the next term),
     * so that a term rotation is not mistaken for back pressure. The second {@code ADMIN_ACTION} of a concurrent
     * publication whose rotation another thread has not finished yet is returned.
     *
     * @param publication destination.
     * @param buffer      holds the message.
     * @param offset      of the message in the buffer.
     * @param length      of the message in bytes.
     * @return the new position (positive), or the negative result of {@link Publication#offer}: back pressured, not
     *         connected, closed, past its max position, or a rotation still in progress.
     */
    public static long offerAcrossRotation(
        final Publication publication, final DirectBuffer buffer, final int offset, final int length)
    {
        final long result = publication.offer(buffer, offset, length);
        return Publication.ADMIN_ACTION == result ? publication.offer(buffer, offset, length) : result;
    }

    /** @return how many attempts found the publication back pressured, since start. */
    public long backPressureCount()
    {
        return backPressureCount.get();
    }
}
