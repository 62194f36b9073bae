package io.bourse.mdpublisher;

import org.agrona.concurrent.IdleStrategy;

/**
 * How the md-publisher's back-pressured offers wait when its MoldUDP64 feed runs on the same thread: the feed is a
 * subscriber of the order feed's publication, so its position bounds the publication's window (half a term). One duty
 * cycle can publish more than a window (the books published after a rebuild from the event archive, a snapshot of a
 * large book); the feed, waiting for the next duty cycle, would never take them, and the offers would be dropped after
 * their retries. So each wait first does the feed's duty cycle ({@link MoldFeedAgent#doWork}: it reads what was
 * published and sends it) and idles only when that found nothing to do. The feed's work is its own (it never offers on
 * the md-publisher's publications), so running it inside an offer changes nothing else.
 */
final class MoldFeedIdleStrategy implements IdleStrategy
{
    private final MoldFeedAgent feed;
    private final IdleStrategy idleStrategy;

    /**
     * @param feed         the MoldUDP64 feed, on the offering thread.
     * @param idleStrategy how to wait when the feed has nothing to do.
     */
    MoldFeedIdleStrategy(final MoldFeedAgent feed, final IdleStrategy idleStrategy)
    {
        this.feed = feed;
        this.idleStrategy = idleStrategy;
    }

    /** Does the feed's duty cycle, then idles when it did nothing. */
    @Override
    public void idle(final int workCount)
    {
        idleStrategy.idle(workCount + feed.doWork());
    }

    /** Does the feed's duty cycle, then idles when it did nothing. */
    @Override
    public void idle()
    {
        idle(0);
    }

    @Override
    public void reset()
    {
        idleStrategy.reset();
    }

    @Override
    public String alias()
    {
        return "mold-feed+" + idleStrategy.alias();
    }
}
