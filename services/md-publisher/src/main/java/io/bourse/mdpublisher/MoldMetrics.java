package io.bourse.mdpublisher;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The MoldUDP64 feed's Prometheus metrics: {@code bourse_md_mold_packets_total{type}} (Downstream Packets sent to the
 * multicast group: {@code data}, {@code heartbeat}, {@code end_of_session}), {@code bourse_md_mold_messages_total}
 * (ITCH messages sent to the group), {@code bourse_md_mold_requests_total} (Request Packets received, malformed ones
 * included), {@code bourse_md_mold_request_messages_total} (messages put in responses, those of a response the socket
 * then refused included: {@code send_failed} counts those responses),
 * {@code bourse_md_mold_requests_unanswered_total{reason}} (requests that get no response: {@code outside_store}, for
 * messages no longer kept or not yet sent; {@code other_session}, naming another Session than the feed's;
 * {@code malformed}, not 20 bytes, or for Sequence Number 0 or no message; {@code rate_limited}, past the requester's
 * requests per second; {@code send_failed}, whose answer the socket refused: {@link MoldRequestServer};
 * {@code file_busy}, for the session file while its answers' queue was full: {@link MoldFileAnswers}) and
 * {@code bourse_md_mold_errors_total} (untranslatable market data, failed sends and receives). Data points are
 * resolved at start-up so that counting allocates nothing. {@code bourse_md_mold_request_socket_drops_total}, Request
 * Packets the kernel dropped at the request socket before the feed could read them (its receive buffer full), is read
 * from the kernel at each scrape ({@link #requestSocketDrops}).
 */
final class MoldMetrics
{
    private final CounterDataPoint dataPackets;
    private final CounterDataPoint heartbeats;
    private final CounterDataPoint endOfSessions;
    private final CounterDataPoint messages;
    private final CounterDataPoint requests;
    private final CounterDataPoint requestMessages;
    private final CounterDataPoint requestsOutsideStore;
    private final CounterDataPoint requestsOtherSession;
    private final CounterDataPoint requestsMalformed;
    private final CounterDataPoint requestsRateLimited;
    private final CounterDataPoint requestsSendFailed;
    private final CounterDataPoint requestsFileBusy;
    private final CounterDataPoint errors;
    private final PrometheusRegistry registry;

    /**
     * @param registry where to register.
     */
    MoldMetrics(final PrometheusRegistry registry)
    {
        this.registry = registry;
        final Counter packets = Counter.builder()
            .name("bourse_md_mold_packets_total")
            .help("MoldUDP64 Downstream Packets sent to the multicast group, by type")
            .labelNames("type")
            .withoutExemplars()
            .register(registry);
        dataPackets = packets.labelValues("data");
        heartbeats = packets.labelValues("heartbeat");
        endOfSessions = packets.labelValues("end_of_session");
        messages = counter(registry, "bourse_md_mold_messages_total", "ITCH messages sent to the multicast group");
        requests = counter(registry, "bourse_md_mold_requests_total",
            "MoldUDP64 Request Packets received, malformed ones included");
        requestMessages = counter(
            registry, "bourse_md_mold_request_messages_total", "ITCH messages resent in answer to requests");
        final Counter unanswered = Counter.builder()
            .name("bourse_md_mold_requests_unanswered_total")
            .help("Requests left without response, by reason: messages no longer kept or not yet sent " +
                "(outside_store), another Session than the feed's (other_session), not a 20-byte request for " +
                "Sequence Number 1 or more and at least one message (malformed), past the requester's requests per " +
                "second (rate_limited), an answer the socket refused (send_failed), for the session file while its " +
                "answers' queue was full (file_busy)")
            .labelNames("reason")
            .withoutExemplars()
            .register(registry);
        requestsOutsideStore = unanswered.labelValues("outside_store");
        requestsOtherSession = unanswered.labelValues("other_session");
        requestsMalformed = unanswered.labelValues("malformed");
        requestsRateLimited = unanswered.labelValues("rate_limited");
        requestsSendFailed = unanswered.labelValues("send_failed");
        requestsFileBusy = unanswered.labelValues("file_busy");
        errors = counter(registry, "bourse_md_mold_errors_total",
            "Untranslatable market data and failed MoldUDP64 sends or receives");
    }

    /**
     * Registers {@code bourse_md_mold_request_socket_drops_total}, which reads the kernel's count at each scrape and
     * has no data point while the kernel gives none ({@link UdpSocketDrops#UNKNOWN}: not Linux).
     *
     * @param drops the request socket's drops.
     */
    void requestSocketDrops(final UdpSocketDrops drops)
    {
        CounterWithCallback.builder()
            .name("bourse_md_mold_request_socket_drops_total")
            .help("MoldUDP64 Request Packets the kernel dropped at the request socket, its receive buffer full, " +
                "before the feed read them (Linux /proc/net/udp)")
            .callback((callback) ->
            {
                final long dropped = drops.drops();
                if (UdpSocketDrops.UNKNOWN != dropped)
                {
                    callback.call(dropped);
                }
            })
            .register(registry);
    }

    private static CounterDataPoint counter(final PrometheusRegistry registry, final String name, final String help)
    {
        return Counter.builder().name(name).help(help).withoutExemplars().register(registry);
    }

    void onDataPacket(final int messageCount)
    {
        dataPackets.inc();
        messages.inc(messageCount);
    }

    void onHeartbeat()
    {
        heartbeats.inc();
    }

    void onEndOfSession()
    {
        endOfSessions.inc();
    }

    void onRequest(final int messagesResent)
    {
        requests.inc();
        if (messagesResent > 0)
        {
            requestMessages.inc(messagesResent);
        }
        else
        {
            requestsOutsideStore.inc();
        }
    }

    void onRequestForAnotherSession()
    {
        requests.inc();
        requestsOtherSession.inc();
    }

    void onMalformedRequest()
    {
        requests.inc();
        requestsMalformed.inc();
    }

    void onRateLimitedRequest()
    {
        requests.inc();
        requestsRateLimited.inc();
    }

    void onFileBusyRequest()
    {
        requests.inc();
        requestsFileBusy.inc();
    }

    /** An answer counted by {@link #onRequest} that the socket refused: also an error. */
    void onFailedAnswer()
    {
        requestsSendFailed.inc();
        errors.inc();
    }

    void onError()
    {
        errors.inc();
    }
}
