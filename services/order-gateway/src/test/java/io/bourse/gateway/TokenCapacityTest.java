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

            assertThat(fixture.messages(fixture.alice).subList(1, 3)).isEqualTo(List.of(
                new Rejected(T0, "BAD TOKEN\u0001", 'O'),
                new Rejected(T0, "A3", 'O')));
            assertThat(fixture.messages(fixture.alice)).as("A1 again: a used token, silently ignored").hasSize(3);
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

    /**
     * Tokens refused as invalid or for the session's capacity were never taken: a restart must not mark them used from
     * their Rejected in the journal. Before, they were, and alice's refused tokens used up the day's capacity that bob
     * still had room in.
     */
    @Test
    void shouldNotCountTheTokensRefusedBeforeARestartInTheCapacitiesAfterIt() throws IOException
    {
        try (OrderEntryFixture before = new OrderEntryFixture(journalDir, RiskLimits.none(), 1, 2, 2, 5))
        {
            before.enterAccepted(before.alice, "A1", 'B', 1);
            before.enterAccepted(before.alice, "A2", 'B', 2);
            for (final String token : List.of("A3", "A4", "A5", "BAD TOKEN\u0001"))
            {
                before.enterOrder(token);
                before.send(before.alice);
            }
            before.enterAccepted(before.bob, "B1", 'B', 1);
            assertThat(before.rejects("session_token_capacity")).isEqualTo(3);
        }

        try (OrderEntryFixture after = new OrderEntryFixture(journalDir, RiskLimits.none(), 3, 4, 2, 5))
        {
            after.enterOrder("B2");
            after.send(after.bob);
            after.enterOrder("A3");
            after.send(after.alice);

            assertThat(after.alice.tokens().size()).isEqualTo(2);
            assertThat(after.engine.commands()).as("B2 within the day's 5: A1, A2, B1, B2")
                .isEqualTo(List.of(new NewOrder(0, T0, id(4, 1), "AAPL", true, 100, PRICE, DAY, 0, "BOBS", 'Y', 'N')));
            assertThat(after.messages(after.alice).getLast()).as("alice's session still at its capacity")
                .isEqualTo(new Rejected(T0, "A3", 'O'));
            assertThat(after.rejects("session_token_capacity")).isEqualTo(1);
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
