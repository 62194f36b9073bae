package io.bourse.mdpublisher;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;

/**
 * How the md-publisher's back-pressured offers wait when its MoldUDP64 feed runs on the same thread: the feed is a
 * subscriber of the order feed's publication, so its position bounds the publication's window (half a term). One duty
 * cycle can publish more than a window (the books published after a rebuild from the event archive, a snapshot of a
 * large book); the feed, waiting for the next duty cycle, would never take them, and the offers would be dropped after
 * their retries. So each wait first does the feed's duty cycle ({@link MoldFeedAgent#doWork}: it reads what was
 * published and sends it), then idles as before, so that an offer's retries last as long as without the feed (an
 * offer to another feed, held back by another subscriber, keeps its budget). The feed's work is its own (it never
 * offers on the md-publisher's publications), and an error it throws is counted and logged here, as its agent runner
 * would, instead of reaching the offer's caller, an engine event half applied.
 */
final class MoldFeedIdleStrategy implements IdleStrategy
{
    private final MoldFeedAgent feed;
    private final IdleStrategy idleStrategy;
    private final ErrorHandler errorHandler;

    /**
     * @param feed         the MoldUDP64 feed, on the offering thread.
     * @param idleStrategy how to wait after the feed's work.
     * @param errorHandler takes what the feed's duty cycle throws.
     */
    MoldFeedIdleStrategy(final MoldFeedAgent feed, final IdleStrategy idleStrategy, final ErrorHandler errorHandler)
    {
        this.feed = feed;
        this.idleStrategy = idleStrategy;
        this.errorHandler = errorHandler;
    }

    /** Does the feed's duty cycle, then idles as the wrapped strategy does for that work count. */
    @Override
    public void idle(final int workCount)
    {
        doFeedWork();
        idleStrategy.idle(workCount);
    }

    /** Does the feed's duty cycle, then idles. */
    @Override
    public void idle()
    {
        doFeedWork();
        idleStrategy.idle();
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

    private void doFeedWork()
    {
        try
        {
            feed.doWork();
        }
        catch (final RuntimeException ex)
        {
            errorHandler.onError(ex);
        }
    }
}
