package io.bourse.gateway;

import io.bourse.gateway.OuchMessages.AiqCanceledMessage;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/** Self-match prevention cancels reach the client as OUCH 4.2 AIQ Canceled, instead of Canceled. */
class AiqCanceledTest
{
    private OrderEntryFixture fixture;

    @BeforeEach
    void open(@TempDir final Path journalDir) throws IOException
    {
        fixture = new OrderEntryFixture(journalDir, RiskLimits.none());
    }

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void shouldSendAiqCanceledWithTheRestingOrdersPriceToBothSidesWhenBothAreDecremented()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);
        fixture.enterOrder("B1").price(PRICE + 100);
        fixture.send(fixture.bob);
        fixture.events.accepted(T1, id(2, 1), 201, "AAPL", Side.BUY, 100, PRICE + 100, DAY);

        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 60, 40, Ouch42.CANCEL_SELF_MATCH_PREVENTION, true);
        fixture.events.canceled(T2, id(2, 1), 201, "AAPL", 60, 40, Ouch42.CANCEL_SELF_MATCH_PREVENTION, false);

        assertThat(fixture.messages(fixture.alice).get(1)).isEqualTo(
            new AiqCanceledMessage(T2, "S1", 60, 'Q', 60, PRICE, 'A'));
        assertThat(fixture.messages(fixture.bob).get(1)).isEqualTo(
            new AiqCanceledMessage(T2, "B1", 60, 'Q', 60, PRICE, 'R'));
        assertThat(fixture.orderEntry.openOrderCount()).isEqualTo(2);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "aiq_canceled"))
            .isEqualTo(2);
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_messages_out_total", "canceled")).isZero();
    }

    @Test
    void shouldGiveTheIncomingOrdersOwnLimitWhenNoRestingOrderWasCanceledJustBefore()
    {
        fixture.enterOrder("B1").price(PRICE + 200).timeInForce(0);
        fixture.send(fixture.bob);
        fixture.events.accepted(T1, id(2, 1), 201, "AAPL", Side.BUY, 100, PRICE + 200, 0);
        fixture.events.canceled(T2, id(2, 1), 201, "AAPL", 100, 0, Ouch42.CANCEL_SELF_MATCH_PREVENTION, false);

        assertThat(fixture.messages(fixture.bob).subList(1, 2)).isEqualTo(List.of(
            new AiqCanceledMessage(T2, "B1", 100, 'Q', 100, PRICE + 200, 'R')));
        assertThat(fixture.messages(fixture.bob)).hasSize(2);
        assertThat(fixture.orderEntry.openOrderCount()).isZero();
    }

    @Test
    void shouldKeepCanceledForEveryOtherReason()
    {
        fixture.enterAccepted(fixture.alice, "S1", 'S', 1);

        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_TIMEOUT, true);

        assertThat(fixture.messages(fixture.alice).get(1)).isEqualTo(new Canceled(T2, "S1", 100, 'T'));
    }
}
