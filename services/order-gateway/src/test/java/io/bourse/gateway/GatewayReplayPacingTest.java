package io.bourse.gateway;

import io.bourse.common.time.MidnightNanoClock;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.ouch.Ouch42;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end of a login's replay (SoupBinTCP 4.0 Login Request with a requested sequence number), on the gateway's real
 * agent over a {@link MemoryNetwork}, the test thread running its duty cycles: a replay goes as fast as the client
 * reads, so it ends with the session's send buffer nearly full; the messages journaled after it stay paced until the
 * buffer has drained to half, so that a burst of answers to a client reading steadily is not taken for a slow
 * consumer's backlog; after that, the messages go live.
 */
class GatewayReplayPacingTest
{
    private static final String SESSION = "S20250107";
    private static final long DAY_EPOCH_NS = 20_000L * MidnightNanoClock.NANOS_PER_DAY;
    private static final long TIME_NS = TimeUnit.HOURS.toNanos(10);
    private static final int REPLAYED_REJECTS = 1_000;
    /** More than the room a replay's end leaves in the send buffer, less than half of it. */
    private static final int BURST = 40;
    /** What the slow client reads per duty cycle: about 9 packets, more than the burst's share of a cycle. */
    private static final int READ_BYTES_PER_CYCLE = 256;
    /** Orders sent once the session has caught up. */
    private static final int LIVE = 10;

    @TempDir
    private Path journalRoot;
    private final GatewayMetrics metrics = new GatewayMetrics(new PrometheusRegistry());
    private MemoryGateway gateway;
    private GatewayAgent agent;

    @AfterEach
    void tearDown() throws IOException
    {
        CloseHelper.close(gateway);
    }

    @Test
    void shouldPaceABurstAnsweredRightAfterAReplayUntilTheSendBufferHasDrainedToHalf() throws IOException
    {
        final DutyCycleClock clock = new DutyCycleClock(new MidnightNanoClock(() -> DAY_EPOCH_NS + TIME_NS));
        gateway = MemoryGateway.start(journalRoot, SESSION,
            (ctx) -> ctx.sendBufferBytes(GatewayContext.SEND_BUFFER_BYTES_MIN), new RecordingEngineProxy(), metrics,
            clock);
        agent = gateway.agent();
        journalRejects();

        // Logs in again for the whole day, reading slowly through a small receive window: the replay fills the window
        // and the send buffer, then goes on as the client reads.
        final MemoryNetwork.Endpoint client = gateway.connect(GatewayContext.SEND_BUFFER_BYTES_MIN);
        client.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "demo01pw", 1)));
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BYTES_PER_CYCLE);
        final int journaled = 1 + REPLAYED_REJECTS;
        boolean burstSent = false;
        int idleCycles = 0;
        for (int cycle = 0; cycle < 100_000 && idleCycles < 100; cycle++)
        {
            agent.doWork();
            readBuffer.clear();
            client.read(readBuffer);
            received.write(readBuffer.array(), 0, readBuffer.position());
            idleCycles = 0 == readBuffer.position() ? idleCycles + 1 : 0;
            if (!burstSent && client.peer().isOpen() && metrics.replayedMessages.get() >= journaled)
            {
                // The last replayed message is in the send buffer (nearly full): the client's next orders are
                // answered at once.
                burstSent = true;
                for (int i = 0; i < BURST; i++)
                {
                    client.write(EnterOrders.packet("B" + i, "ZZZZ"));
                }
            }
        }

        assertThat(burstSent).isTrue();
        final List<Object> messages = OuchMessages.sequencedData(received.toByteArray());
        assertThat(messages).as("the replay, then the burst's answers, in the same session").hasSize(journaled + BURST);
        assertThat(messages.getLast())
            .isEqualTo(new Rejected(TIME_NS, "B" + (BURST - 1), (char)Ouch42.REJECT_INVALID_STOCK));
        assertThat(metrics.slowConsumerDisconnects.get()).isZero();

        // Caught up, the buffer drained: the next answers go live, no longer paced as owed history.
        final double replayed = metrics.replayedMessages.get();
        for (int i = 0; i < LIVE; i++)
        {
            client.write(EnterOrders.packet("L" + i, "ZZZZ"));
        }
        for (int cycle = 0; cycle < 1_000 && OuchMessages.sequencedData(received.toByteArray()).size() <
            journaled + BURST + LIVE; cycle++)
        {
            agent.doWork();
            received.write(client.takeAvailable());
        }
        assertThat(OuchMessages.sequencedData(received.toByteArray())).hasSize(journaled + BURST + LIVE);
        assertThat(metrics.replayedMessages.get()).as("paced no more").isEqualTo(replayed);
    }

    /** Journals a Start of Day and {@link #REPLAYED_REJECTS} Rejected for demo01, read at once by a first client. */
    private void journalRejects() throws IOException
    {
        final MemoryNetwork.Endpoint first = gateway.connect(1 << 20);
        first.write(ByteBuffer.wrap(LoginRequests.packet("demo01", "demo01pw", 0)));
        for (int i = 0; i < REPLAYED_REJECTS; i++)
        {
            first.write(EnterOrders.packet("R" + i, "ZZZZ"));
        }
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final int journaled = 1 + REPLAYED_REJECTS;
        for (int cycle = 0; cycle < 100 && OuchMessages.sequencedData(received.toByteArray()).size() < journaled;
            cycle++)
        {
            agent.doWork();
            received.write(first.takeAvailable());
        }
        assertThat(OuchMessages.sequencedData(received.toByteArray())).hasSize(journaled);
        first.close();
        for (int cycle = 0; cycle < 10 && first.peer().isOpen(); cycle++)
        {
            agent.doWork();
        }
    }
}
