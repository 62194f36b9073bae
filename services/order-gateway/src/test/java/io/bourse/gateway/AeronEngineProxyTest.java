package io.bourse.gateway;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.bourse.common.aeron.BoundedOffer;
import io.bourse.common.aeron.EmbeddedAeron;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command proxy on a real embedded media driver with the smallest IPC terms (64 KiB, a 32 KiB window) and a
 * subscriber that polls only when told: the room it reports matches what the stream takes.
 */
@Timeout(20)
class AeronEngineProxyTest
{
    private static final int TERM_LENGTH = 64 * 1024;
    private static final int STREAM_ID = 1000;

    @RegisterExtension
    private final EmbeddedAeron embedded = new EmbeddedAeron("engine-proxy", TERM_LENGTH);
    private Publication publication;
    private AeronEngineProxy proxy;

    @BeforeEach
    void launch()
    {
        publication = embedded.aeron().addPublication("aeron:ipc", STREAM_ID);
        proxy = new AeronEngineProxy(new Publication[]{publication}, new BoundedOffer(NoOpIdleStrategy.INSTANCE, 0));
    }

    @Test
    void shouldReportRoomWhileNoShardIsConnectedSoThatCommandsAreRefusedAndAnswered()
    {
        assertThat(proxy.hasRoomFor(SessionRegistry.MAX_COMMANDS_PER_RECEIVE)).isTrue();
        assertThat(newOrder()).isZero();
    }

    @Test
    void shouldReportNoRoomBeforeTheStreamRefusesACommandAndRoomAgainOnceTheShardReads() throws Exception
    {
        try (Subscription shard = embedded.aeron().addSubscription("aeron:ipc", STREAM_ID))
        {
            awaitRoomFor(1);
            assertThat(publication.isConnected()).isTrue();

            int sent = 0;
            while (proxy.hasRoomFor(1))
            {
                assertThat(newOrder()).as("command %d, reported room", sent).isPositive();
                sent++;
            }
            assertThat(sent).isBetween(TERM_LENGTH / 2 / AeronEngineProxy.MAX_COMMAND_FRAME_LENGTH, TERM_LENGTH / 2);
            assertThat(proxy.hasRoomFor(SessionRegistry.MAX_COMMANDS_PER_RECEIVE)).isFalse();

            int read = 0;
            while (read < sent)
            {
                read += shard.poll((buffer, offset, length, header) -> { }, Integer.MAX_VALUE);
            }
            awaitRoomFor(TERM_LENGTH / 2 / AeronEngineProxy.MAX_COMMAND_FRAME_LENGTH);
        }
    }

    /** Orders, cancels and replacements give where they end on the stream, which a shard's run names when it joins. */
    @Test
    void shouldTakeNoMoreThanTheLongestCommandFrameForAnyCommandAndGiveWhereItEnds() throws Exception
    {
        try (Subscription ignored = embedded.aeron().addSubscription("aeron:ipc", STREAM_ID))
        {
            awaitRoomFor(3);
            long position = publication.position();
            assertThat(newOrder()).isEqualTo(publication.position());
            assertThat(publication.position() - position)
                .isLessThanOrEqualTo(AeronEngineProxy.MAX_COMMAND_FRAME_LENGTH);
            position = publication.position();
            assertThat(proxy.cancelOrder(0, 1L, 2L, 0)).isEqualTo(publication.position());
            assertThat(publication.position() - position)
                .isLessThanOrEqualTo(AeronEngineProxy.MAX_COMMAND_FRAME_LENGTH);
            position = publication.position();
            assertThat(proxy.replaceOrder(0, 1L, 2L, 3L, 100, 1_500_000, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS))
                .isEqualTo(publication.position());
            assertThat(publication.position() - position)
                .isLessThanOrEqualTo(AeronEngineProxy.MAX_COMMAND_FRAME_LENGTH);
            assertThat(proxy.commandSessionId(0)).isEqualTo(publication.sessionId());
        }
    }

    /** A ClockTick that reaches the end of a term goes into the next one: handed over, not left to the next tick. */
    @Test
    void shouldHandOverEveryClockTickAcrossTermRotations() throws Exception
    {
        try (Subscription shard = embedded.aeron().addSubscription("aeron:ipc", STREAM_ID))
        {
            int ticks = 0;
            while (publication.position() < 3L * TERM_LENGTH)
            {
                awaitRoomFor(1);
                assertThat(proxy.clockTick(0, ticks)).as("clock tick %d at %d", ticks, publication.position()).isTrue();
                ticks++;
                int read;
                while (0 == (read = shard.poll((buffer, offset, length, header) -> { }, 1)))
                {
                    Thread.onSpinWait(); // at a term's end the first poll only steps over its padding
                }
                assertThat(read).isOne();
            }
        }
    }

    private long newOrder()
    {
        return proxy.newOrder(0, 1L, 2L, Symbols.pack("AAPL"), true, 100, 1_500_000, Ouch42.TIME_IN_FORCE_MARKET_HOURS,
            0, 0, Ouch42.DISPLAY_ANONYMOUS, Ouch42.CROSS_TYPE_NO_CROSS);
    }

    private void awaitRoomFor(final int commands) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + 10_000_000_000L;
        while (!(publication.isConnected() && proxy.hasRoomFor(commands)) && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertThat(proxy.hasRoomFor(commands)).as("room for %d commands", commands).isTrue();
    }
}
