package io.bourse.mdpublisher;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.Agent;

/**
 * Polls every engine shard's event stream in turn and hands each event to the market-data books, then answers the
 * snapshot requests that came, between two events, so that a snapshot stands exactly after the last increment.
 */
final class MdPublisherAgent implements Agent
{
    private static final int SNAPSHOT_REQUEST_LIMIT = 16;

    private final Subscription[] subscriptions;
    private final FragmentHandler handler;
    private final Subscription snapshotRequests;
    private final SnapshotPublisher snapshotPublisher;
    private final int fragmentLimit;

    /**
     * @param subscriptions     one per engine shard.
     * @param handler           decodes the events.
     * @param snapshotRequests  the snapshot-request stream.
     * @param snapshotPublisher answers the requests; one snapshot per duty cycle for all of them.
     * @param fragmentLimit     most events read from one stream per duty cycle.
     */
    MdPublisherAgent(
        final Subscription[] subscriptions, final FragmentHandler handler, final Subscription snapshotRequests,
        final SnapshotPublisher snapshotPublisher, final int fragmentLimit)
    {
        this.subscriptions = subscriptions;
        this.handler = handler;
        this.snapshotRequests = snapshotRequests;
        this.snapshotPublisher = snapshotPublisher;
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
        workCount += snapshotRequests.poll(snapshotPublisher, SNAPSHOT_REQUEST_LIMIT);
        return workCount + snapshotPublisher.publishRequested();
    }

    @Override
    public String roleName()
    {
        return "md-publisher";
    }
}
