package io.bourse.gateway;

import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Credentials;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The day's Order Token capacity, per session and per gateway: a new token beyond it gets OUCH 4.2 Rejected 'O',
 * counted by cause, while the session goes on and the other sessions trade; the tokens a restarted gateway rebuilds
 * from the journals count in it.
 */
class TokenCapacityTest
{
    @TempDir
    private Path journalDir;

    @Test
    void shouldRejectNewTokensBeyondTheSessionCapacityWhileTheOtherSessionTrades() throws IOException
    {
        try (OrderEntryFixture fixture = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, 2, 100))
        {
            fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
            fixture.enterOrder("BAD TOKEN\u0001");
            fixture.send(fixture.alice);
            fixture.enterOrder("A2");
            fixture.send(fixture.alice);
            fixture.enterOrder("A3");
            fixture.send(fixture.alice);
            fixture.replaceOrder("A1", "A1R").shares(50);
            fixture.send(fixture.alice);
            fixture.enterOrder("A1");
            fixture.send(fixture.alice);
            fixture.enterOrder("B1");
            fixture.send(fixture.bob);

            assertThat(fixture.messages(fixture.alice).subList(1, 4)).isEqualTo(List.of(
                new Rejected(T0, "BAD TOKEN\u0001", 'O'),
                new Rejected(T0, "A3", 'O'),
                new Rejected(T0, "A1", 'O')));
            // A1R has no room: the replace takes A1 out of the book (OUCH 4.2 §2.2).
            assertThat(fixture.engine.commands()).isEqualTo(List.of(
                new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
                new NewOrder(0, T0, id(1, 2), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
                new Cancel(0, T0, id(1, 1), 0),
                new NewOrder(0, T0, id(2, 1), "AAPL", true, 100, PRICE, DAY, 0, "BOBS", 'Y', 'N')));
            assertThat(fixture.rejects("invalid_token")).isEqualTo(1);
            assertThat(fixture.rejects("session_token_capacity")).isEqualTo(2);
            assertThat(fixture.rejects("duplicate_token")).isEqualTo(1);
            assertThat(fixture.rejects("day_token_capacity")).isZero();
            assertThat(fixture.alice.tokens().size()).isEqualTo(2);
        }
    }

    @Test
    void shouldRejectNewTokensOfEverySessionOnceTheGatewaysDayCapacityIsUsed() throws IOException
    {
        try (OrderEntryFixture fixture = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, 100, 3))
        {
            fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
            fixture.enterOrder("A2");
            fixture.send(fixture.alice);
            fixture.enterOrder("B1");
            fixture.send(fixture.bob);
            fixture.enterOrder("B2");
            fixture.send(fixture.bob);
            fixture.replaceOrder("A1", "A1R").shares(50);
            fixture.send(fixture.alice);

            assertThat(fixture.messages(fixture.bob)).isEqualTo(List.of(new Rejected(T0, "B2", 'O')));
            assertThat(fixture.messages(fixture.alice)).hasSize(1); // A1's Accepted: A1R takes A1 out of the book
            assertThat(fixture.engine.commands()).hasSize(4).endsWith(new Cancel(0, T0, id(1, 1), 0));
            assertThat(fixture.rejects("day_token_capacity")).isEqualTo(2);
            assertThat(fixture.rejects("session_token_capacity")).isZero();
        }
    }

    @Test
    void shouldCountTheTokensRebuiltFromTheJournalsInTheDayCapacityAfterARestart() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none()))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.enterAccepted(before.alice, "A2", 'B', 2);
            before.enterOrder("B1");
            before.send(before.bob);
        }

        try (OrderEntryFixture full = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4, 100, 3))
        {
            full.replaceOrder("A1", "A1R").shares(50);
            full.send(full.alice);

            assertThat(full.engine.commands()).isEqualTo(List.of(new Cancel(0, T0, id(1, 1), 0)));
            assertThat(full.rejects("day_token_capacity")).isEqualTo(1);
        }

        // A1R was not consumed (OUCH 4.2 §2.2), and A1's cancel got no answer: the rebuilt tokens are A1, A2 and B1.
        try (OrderEntryFixture roomForOne = new OrderEntryFixture(journalDir, RiskLimits.none(), 5, 6, 100, 4))
        {
            roomForOne.replaceOrder("A1", "A1S").shares(50);
            roomForOne.send(roomForOne.alice);
            roomForOne.enterOrder("B2");
            roomForOne.send(roomForOne.bob);

            assertThat(roomForOne.engine.commands())
                .isEqualTo(List.of(new Replace(0, T0, id(1, 1), id(5, 1), 50, PRICE, DAY)));
            assertThat(roomForOne.messages(roomForOne.bob).getLast()).isEqualTo(new Rejected(T0, "B2", 'O'));
        }
    }

    @Test
    void shouldReadTheCapacitiesFromTheEnvironmentAndRefuseValuesOutOfRange()
    {
        final Settings settings = new Settings(Map.of(
            "BOURSE_GATEWAY_MAX_SESSION_TOKENS", "1000",
            "BOURSE_GATEWAY_MAX_DAY_TOKENS", "5000"));
        assertThat(concluded(GatewayContext.fromSettings(settings)).maxSessionTokens()).isEqualTo(1000);
        assertThat(concluded(GatewayContext.fromSettings(settings)).maxDayTokens()).isEqualTo(5000);
        assertThat(GatewayContext.fromSettings(new Settings(Map.of())).maxSessionTokens())
            .isEqualTo(GatewayContext.MAX_SESSION_TOKENS_DEFAULT);

        assertThatThrownBy(() -> concluded(GatewayContext.fromSettings(settings).maxSessionTokens(0)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(GatewayContext.MAX_SESSION_TOKENS_PROP_NAME);
        assertThatThrownBy(() -> concluded(GatewayContext.fromSettings(settings).maxDayTokens((1L << 30) + 1)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(GatewayContext.MAX_DAY_TOKENS_PROP_NAME);
    }

    private static GatewayContext concluded(final GatewayContext ctx)
    {
        return ctx
            .sessionName("TEST")
            .credentials(Credentials.parse(List.of("alice,alice01pw,DEMO")))
            .streamLayout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0"))
            .idleStrategy(new SleepingMillisIdleStrategy(1))
            .conclude();
    }
}
