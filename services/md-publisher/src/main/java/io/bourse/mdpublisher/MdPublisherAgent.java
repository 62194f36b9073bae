package io.bourse.mdpublisher;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.Agent;

/** Polls every engine shard's event stream in turn and hands each event to the market-data books. */
final class MdPublisherAgent implements Agent
{
    private final Subscription[] subscriptions;
    private final FragmentHandler handler;
    private final int fragmentLimit;

    /**
     * @param subscriptions one per engine shard.
     * @param handler       decodes the events.
     * @param fragmentLimit most events read from one stream per duty cycle.
     */
    MdPublisherAgent(final Subscription[] subscriptions, final FragmentHandler handler, final int fragmentLimit)
    {
        this.subscriptions = subscriptions;
        this.handler = handler;
        this.fragmentLimit = fragmentLimit;
    }

    @Override
    public int doWork()
    {
        int workCount = 0;
        for (final Subscription subscription : subscriptions)
        {
            workCount += subscription.poll(handler, fragmentLimit);
        }
        return workCount;
    }

    @Override
    public String roleName()
    {
        return "md-publisher";
    }
}
