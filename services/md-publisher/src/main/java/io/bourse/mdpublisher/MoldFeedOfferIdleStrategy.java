package io.bourse.mdpublisher;

import io.bourse.common.aeron.BoundedOffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.IntSupplier;

/**
 * Waits between two attempts of a back-pressured market-data offer ({@link BoundedOffer}) by running a duty cycle of
 * the MoldUDP64 feed, which shares the md-publisher's thread, then backing off. While a stalled subscriber holds an SBE
 * feed's window, every offer to it waits out its retries (about 10 ms at the default 100), and one duty cycle of the
 * md-publisher can last seconds; the MoldUDP64 packets of the messages already taken still go out meanwhile, the
 * Heartbeats stay on time and re-requests are answered. The message being offered is taken by the feed only after its
 * offer, so the MoldUDP64 order stays the order feed's. An exception of the feed's duty cycle goes to the error
 * handler, not out of the offer: it would end the md-publisher's duty cycle in the middle of a message, whose increment
 * the SBE and MoldUDP64 feeds would then miss while the books hold it.
 */
final class MoldFeedOfferIdleStrategy implements IdleStrategy
{
    private final IntSupplier moldFeed;
    private final IdleStrategy backoff;
    private final ErrorHandler errorHandler;

    /**
     * @param moldFeed     a duty cycle of the MoldUDP64 feed, started on this thread, in the middle of an engine event
     *                     ({@link MoldFeedAgent#doWorkWithinOffer}).
     * @param backoff      how to wait after its duty cycle.
     * @param errorHandler takes what its duty cycle throws (an {@link Exception}; an {@link Error} goes on up).
     */
    MoldFeedOfferIdleStrategy(final IntSupplier moldFeed, final IdleStrategy backoff, final ErrorHandler errorHandler)
    {
        this.moldFeed = moldFeed;
        this.backoff = backoff;
        this.errorHandler = errorHandler;
    }

    /** Runs a duty cycle of the MoldUDP64 feed and backs off, unless the last attempt did work. */
    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    /** Runs a duty cycle of the MoldUDP64 feed, then backs off, whatever the duty cycle threw. */
    @Override
    public void idle()
    {
        try
        {
            moldFeed.getAsInt();
        }
        catch (final Exception ex)
        {
            errorHandler.onError(ex);
        }
        backoff.idle();
    }

    @Override
    public void reset()
    {
        backoff.reset();
    }

    @Override
    public String alias()
    {
        return "mold-feed-" + backoff.alias();
    }
}
