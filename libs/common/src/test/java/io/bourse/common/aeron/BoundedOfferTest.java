package io.bourse.common.aeron;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Offers on a real embedded media driver with the smallest IPC terms (64 KiB, a 32 KiB window), through an exclusive
 * and a concurrent publication: a term rotation is neither back pressure nor a failure, a full window is both.
 */
@Timeout(20)
class BoundedOfferTest
{
    private static final int TERM_LENGTH = 64 * 1024;
    private static final int STREAM_ID = 1000;
    /** A 1,032-byte frame (1,056 with its alignment): 62 to a term and a padding, so that a term fills often. */
    private static final int MESSAGE_LENGTH = 1000;
    private static final int FRAME_LENGTH = 1056;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
    @RegisterExtension
    private final EmbeddedAeron embedded = new EmbeddedAeron("bounded-offer", TERM_LENGTH);
    private Subscription subscription;

    @BeforeEach
    void launch()
    {
        subscription = embedded.aeron().addSubscription("aeron:ipc", STREAM_ID);
    }

    @ParameterizedTest(name = "exclusive publication: {0}")
    @ValueSource(booleans = {true, false})
    void shouldOfferAcrossTermRotationsWithoutRetriesAndCountNoBackPressure(final boolean exclusive)
    {
        final Publication publication = connected(exclusive);
        final BoundedOffer offer = new BoundedOffer(NoOpIdleStrategy.INSTANCE, 0);

        // 4 terms of messages, each read before the next is offered, and offered once the driver has moved the
        // publication's limit on (its conductor does, now and then): the window never fills, the log rotates 4 times.
        final int messages = 4 * TERM_LENGTH / FRAME_LENGTH;
        for (int i = 0; i < messages; i++)
        {
            awaitRoom(publication);
            message.putInt(0, i);
            assertThat(offer.offer(publication, message, 0, MESSAGE_LENGTH)).as("offer " + i).isPositive();
            int fragments;
            while (0 == (fragments = subscription.poll((buffer, offset, length, header) -> { }, 1)))
            {
                Thread.onSpinWait(); // at a term's end the first poll only steps over its padding
            }
            assertThat(fragments).isOne();
        }

        assertThat(publication.position()).isGreaterThan(3L * TERM_LENGTH);
        assertThat(offer.backPressureCount()).isZero();
    }

    @ParameterizedTest(name = "exclusive publication: {0}")
    @ValueSource(booleans = {true, false})
    void shouldGiveUpAfterTheRetriesAndCountEachWhenTheWindowIsFull(final boolean exclusive)
    {
        final Publication publication = connected(exclusive);
        final BoundedOffer offer = new BoundedOffer(NoOpIdleStrategy.INSTANCE, 3);

        // Nobody reads: the 32 KiB window takes about 32 messages, then every attempt is back pressured.
        long result;
        int taken = 0;
        while ((result = offer.offer(publication, message, 0, MESSAGE_LENGTH)) > 0)
        {
            taken++;
        }

        assertThat(result).isEqualTo(Publication.BACK_PRESSURED);
        assertThat(taken).isBetween(TERM_LENGTH / 2 / FRAME_LENGTH - 1, TERM_LENGTH / FRAME_LENGTH);
        assertThat(offer.backPressureCount()).isEqualTo(3);
    }

    @ParameterizedTest(name = "exclusive publication: {0}")
    @ValueSource(booleans = {true, false})
    void shouldReturnAdminActionOnlyFromThePlainOfferAtARotation(final boolean exclusive)
    {
        final Publication publication = connected(exclusive);
        long rotations = 0;
        for (int i = 0; i < 2 * TERM_LENGTH / FRAME_LENGTH; i++)
        {
            awaitRoom(publication);
            final long plain = publication.offer(message, 0, MESSAGE_LENGTH);
            if (Publication.ADMIN_ACTION == plain)
            {
                rotations++;
                assertThat(BoundedOffer.offerAcrossRotation(publication, message, 0, MESSAGE_LENGTH)).isPositive();
            }
            else
            {
                assertThat(plain).isPositive();
            }
            while (subscription.poll((buffer, offset, length, header) -> { }, 10) > 0)
            {
                Thread.onSpinWait();
            }
        }

        assertThat(rotations).as("term rotations the plain offer reported").isPositive();
    }

    private static void awaitRoom(final Publication publication)
    {
        while (publication.availableWindow() < 2 * FRAME_LENGTH)
        {
            Thread.yield();
        }
    }

    private Publication connected(final boolean exclusive)
    {
        final Aeron aeron = embedded.aeron();
        final Publication publication = exclusive ?
            aeron.addExclusivePublication("aeron:ipc", STREAM_ID) : aeron.addPublication("aeron:ipc", STREAM_ID);
        while (!publication.isConnected() || !subscription.isConnected())
        {
            Thread.yield();
        }
        return publication;
    }
}
