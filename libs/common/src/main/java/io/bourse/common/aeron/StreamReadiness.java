package io.bourse.common.aeron;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.metrics.Readiness;

import java.util.ArrayList;
import java.util.List;

/**
 * A service's {@link Readiness} from the Aeron streams it needs: ready once each publication has a subscriber and each
 * subscription has a publisher (an image), e.g. the order gateway's command stream to every engine shard and event
 * stream from it. The first stream, in the order they were added, that is not connected is the reason given, e.g.
 * "no subscriber on aeron:ipc stream 1001 (matching-engine shard 1)". Both checks read Aeron's state safely from any
 * thread.
 */
public final class StreamReadiness implements Readiness
{
    private final List<Readiness> streams = new ArrayList<>();

    /**
     * Requires a subscriber on a publication.
     *
     * @param publication the service's publication.
     * @param peer        who should subscribe, for the reason, e.g. "matching-engine shard 1".
     * @return this.
     */
    public StreamReadiness subscribed(final Publication publication, final String peer)
    {
        streams.add(() -> publication.isConnected() ? null :
            "no subscriber on " + publication.channel() + " stream " + publication.streamId() + " (" + peer + ")");
        return this;
    }

    /**
     * Requires a publisher on a subscription.
     *
     * @param subscription the service's subscription.
     * @param peer         who should publish, for the reason, e.g. "md-publisher".
     * @return this.
     */
    public StreamReadiness published(final Subscription subscription, final String peer)
    {
        streams.add(() -> subscription.isConnected() ? null :
            "no publisher on " + subscription.channel() + " stream " + subscription.streamId() + " (" + peer + ")");
        return this;
    }

    @Override
    public String notReadyReason()
    {
        for (int i = 0; i < streams.size(); i++)
        {
            final String reason = streams.get(i).notReadyReason();
            if (null != reason)
            {
                return reason;
            }
        }
        return null;
    }
}
