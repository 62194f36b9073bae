package io.bourse.mdpublisher;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The MoldUDP64 feed's duty cycles run while a market-data offer waits. */
class MoldFeedOfferIdleStrategyTest
{
    private final List<Throwable> errors = new ArrayList<>();
    private int dutyCycles;

    @Test
    void shouldRunTheFeedsDutyCycleWhenAnOfferWaits()
    {
        final IdleStrategy idle = new MoldFeedOfferIdleStrategy(feed(null), NoOpIdleStrategy.INSTANCE, errors::add);

        idle.idle(0);
        idle.idle(0);
        idle.idle(1);

        assertThat(dutyCycles).as("not after an attempt that did work").isEqualTo(2);
        assertThat(errors).isEmpty();
    }

    @Test
    void shouldHandAnExceptionOfTheFeedsDutyCycleToTheErrorHandlerNotToTheOffer()
    {
        final IllegalStateException failure = new IllegalStateException("feed failed");
        final IdleStrategy idle = new MoldFeedOfferIdleStrategy(feed(failure), NoOpIdleStrategy.INSTANCE, errors::add);

        idle.idle(0);
        idle.idle();

        assertThat(dutyCycles).isEqualTo(2);
        assertThat(errors).containsExactly(failure, failure);
    }

    @Test
    void shouldLetAnErrorOfTheFeedsDutyCycleGoOn()
    {
        final IdleStrategy idle =
            new MoldFeedOfferIdleStrategy(feed(new OutOfMemoryError("heap")), NoOpIdleStrategy.INSTANCE, errors::add);

        assertThatThrownBy(idle::idle).isInstanceOf(OutOfMemoryError.class);
        assertThat(errors).isEmpty();
    }

    /** @return a feed that counts its duty cycles and throws {@code failure} from each, when not null. */
    private IntSupplier feed(final Throwable failure)
    {
        return () ->
        {
            dutyCycles++;
            if (failure instanceof RuntimeException exception)
            {
                throw exception;
            }
            if (failure instanceof Error error)
            {
                throw error;
            }
            return 0;
        };
    }
}
