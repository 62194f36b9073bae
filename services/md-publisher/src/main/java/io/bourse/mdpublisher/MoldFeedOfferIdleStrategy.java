package io.bourse.mdpublisher;

import io.bourse.common.aeron.BoundedOffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * Waits between two attempts of a back-pressured market-data offer ({@link BoundedOffer}) by running a duty cycle of
 * the MoldUDP64 feed, which shares the md-publisher's thread, then backing off. While a stalled subscriber holds an SBE
 * feed's window, every offer to it waits out its retries (about 10 ms at the default 100), and one duty cycle of the
 * md-publisher can last seconds; the MoldUDP64 packets of the messages already taken still go out meanwhile, the
 * Heartbeats stay on time and re-requests are answered. The message being offered is taken by the feed only after its
 * offer, so the MoldUDP64 order stays the order feed's.
 */
final class MoldFeedOfferIdleStrategy implements IdleStrategy
{
    private final MoldFeedAgent moldFeed;
    private final IdleStrategy backoff;

    /**
     * @param moldFeed the MoldUDP64 feed, started on this thread.
     * @param backoff  how to wait after its duty cycle.
     */
    MoldFeedOfferIdleStrategy(final MoldFeedAgent moldFeed, final IdleStrategy backoff)
    {
        this.moldFeed = moldFeed;
        this.backoff = backoff;
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

    /** Runs a duty cycle of the MoldUDP64 feed, then backs off. */
    @Override
    public void idle()
    {
        moldFeed.doWork();
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
