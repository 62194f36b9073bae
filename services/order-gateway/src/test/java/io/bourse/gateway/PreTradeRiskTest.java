package io.bourse.gateway;

import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import io.bourse.ouch.Ouch42;
import io.bourse.sbe.engine.Side;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.bourse.gateway.OrderEntryFixture.DAY;
import static io.bourse.gateway.OrderEntryFixture.NANO_TIME;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.T2;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The per-user and per-firm pre-trade limits, the order rate limits and cancel on disconnect, through the order entry;
 * and the configuration they come from.
 */
class PreTradeRiskTest
{
    private static final String HEADER =
        "username,max_order_shares,max_notional,max_open_orders,price_band_bp,orders_per_second,cancel_on_disconnect";
    private static final String FIRM_HEADER =
        "firm,max_order_shares,max_notional,max_open_orders,price_band_bp,orders_per_second";
    private static final int CAROL = 3;
    /** Client order id bits of another gateway's orders (gateway id 2). */
    private static final long OTHER_GATEWAY = (2L << 56) | (1L << 32);

    @TempDir
    private Path journalDir;
    private OrderEntryFixture fixture;
    private UserSession carol;

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(fixture, null == carol ? null : carol.journal());
    }

    @Test
    void shouldRejectOrdersAboveTheUsersShareAndDollarLimitsWhileOtherUsersHaveNone() throws IOException
    {
        open(List.of("alice,1000,100000,,,,"), Map.of());

        fixture.enterOrder("BIG").shares(1001);
        fixture.send(fixture.alice);
        fixture.enterOrder("DEAR").shares(700);
        fixture.send(fixture.alice);
        fixture.enterOrder("OK").shares(600).price(1_666_600);
        fixture.send(fixture.alice);
        fixture.enterOrder("BOB").shares(5000);
        fixture.send(fixture.bob);
        fixture.replaceOrder("OK", "BIGGER").shares(1001).price(1_000_000);
        fixture.send(fixture.alice);
        fixture.replaceOrder("OK", "DEARER").shares(601).price(1_666_600);
        fixture.send(fixture.alice);

        // A replace beyond the limits takes the existing order out of the book (OUCH 4.2 §2.2), once per replace
        // until the engine's Canceled comes.
        assertThat(fixture.engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 600, 1_666_600, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(2, 1), "AAPL", true, 5000, PRICE, DAY, 0, "BOBS", 'Y', 'N'),
            new Cancel(0, T0, id(1, 1), 0),
            new Cancel(0, T0, id(1, 1), 0)));
        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "BIG", 'm'),
            new Rejected(T0, "DEAR", 'n')));
        assertThat(fixture.rejects("risk_max_order_shares")).isEqualTo(2);
        assertThat(fixture.rejects("risk_max_notional")).isEqualTo(2);
    }

    @Test
    void shouldRejectNewOrdersBeyondTheOpenOrderLimitUntilOneIsDone() throws IOException
    {
        open(List.of("alice,,,2,,,"), Map.of());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "A2", 'B', 2);

        fixture.enterOrder("A3");
        fixture.send(fixture.alice);
        fixture.replaceOrder("A2", "A2R").shares(50);
        fixture.send(fixture.alice);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.enterOrder("A4");
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice).get(2)).isEqualTo(new Rejected(T0, "A3", 'O'));
        assertThat(fixture.engine.commands().subList(2, 4)).isEqualTo(List.of(
            new Replace(0, T0, id(1, 2), id(1, 3), 50, PRICE, DAY),
            new NewOrder(0, T0, id(1, 4), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(fixture.rejects("risk_max_open_orders")).isEqualTo(1);
    }

    @Test
    void shouldRejectBuysAboveAndSellsBelowTheCollarAroundTheReferencePrice() throws IOException
    {
        open(List.of("alice,,,,500,,"), Map.of("AAPL", PRICE));

        fixture.enterOrder("B1").price(1_575_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("B2").price(1_575_100);
        fixture.send(fixture.alice);
        fixture.enterOrder("S1").buySellIndicator(Ouch42.SIDE_SELL).price(1_425_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("S2").buySellIndicator(Ouch42.SIDE_SELL_SHORT).price(1_424_900);
        fixture.send(fixture.alice);
        fixture.enterOrder("B3").price(10_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("S3").buySellIndicator(Ouch42.SIDE_SELL).price(Ouch42.MAX_PRICE);
        fixture.send(fixture.alice);
        fixture.enterOrder("M1").stock(Symbols.pack("MSFT")).price(Ouch42.MAX_PRICE);
        fixture.send(fixture.alice);
        fixture.enterOrder("B4").price(1_575_100);
        fixture.send(fixture.bob);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "B2", 'X'),
            new Rejected(T0, "S2", 'X')));
        assertThat(fixture.engine.commands()).hasSize(6);
        assertThat(fixture.rejects("risk_price_band")).isEqualTo(2);
    }

    @Test
    void shouldMoveTheCollarToTheLastTradeOfAnyGateway() throws IOException
    {
        open(List.of("alice,,,,1000,,"), Map.of());
        tradeOfAnotherGateway(5, "MSFT", 3_000_000);

        fixture.enterOrder("M1").stock(Symbols.pack("MSFT")).price(3_300_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("M2").stock(Symbols.pack("MSFT")).price(3_300_100);
        fixture.send(fixture.alice);
        fixture.enterOrder("M3").stock(Symbols.pack("MSFT")).buySellIndicator(Ouch42.SIDE_SELL).price(2_699_900);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "M2", 'X'),
            new Rejected(T0, "M3", 'X')));
        assertThat(fixture.engine.commands()).hasSize(1);
    }

    /**
     * An operator breaks the 10 executions of an order that swept the book far from the market (erroneous): the collar
     * goes back around the trade before them, and around the configured reference once every trade kept is broken.
     * Before, the last broken trade stayed the reference until the next trade.
     */
    @Test
    void shouldCollarAroundTheTradeBeforeBrokenOnes() throws IOException
    {
        open(List.of("alice,,,,1000,,"), Map.of("MSFT", 1_000_000L));
        tradeOfAnotherGateway(17, "MSFT", 3_000_000);
        for (int execution = 1; execution <= 10; execution++)
        {
            tradeOfAnotherGateway(17 + execution * 16L, "MSFT", 6_000_000 + execution * 100L);
        }
        for (int execution = 1; execution <= 10; execution++)
        {
            tradeOfAnotherGatewayBroken(17 + execution * 16L, "MSFT", 6_000_000 + execution * 100L);
        }

        fixture.enterOrder("M1").stock(Symbols.pack("MSFT")).price(3_300_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("M2").stock(Symbols.pack("MSFT")).price(3_300_100);
        fixture.send(fixture.alice);
        tradeOfAnotherGatewayBroken(17, "MSFT", 3_000_000);
        fixture.enterOrder("M3").stock(Symbols.pack("MSFT")).price(1_100_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("M4").stock(Symbols.pack("MSFT")).price(1_100_100);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "M2", 'X'),
            new Rejected(T0, "M4", 'X')));
        assertThat(fixture.engine.commands()).hasSize(2);
    }

    /** A trade on a symbol this gateway does not have (another gateway's) is left out: no collar moves. */
    @Test
    void shouldLeaveOutATradeOnASymbolNotInTheDirectory() throws IOException
    {
        open(List.of("alice,,,,1000,,"), Map.of("MSFT", 1_000_000L));
        tradeOfAnotherGateway(5, "GOOG", 3_000_000);

        fixture.enterOrder("M1").stock(Symbols.pack("MSFT")).price(1_100_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("M2").stock(Symbols.pack("MSFT")).price(1_100_100);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(new Rejected(T0, "M2", 'X')));
        assertThat(fixture.engine.commands()).hasSize(1);
    }

    /**
     * A gateway restarted during the day collars orders around the day's last trades, kept on disk, not the configured
     * reference: before, only the trades of the engine events it replays were known, and none without the archive.
     */
    @Test
    void shouldCollarAroundTheDaysLastTradesAfterARestart() throws IOException
    {
        open(List.of("alice,,,,1000,,"), Map.of("MSFT", 1_000_000L, "AAPL", PRICE));
        tradeOfAnotherGateway(5, "MSFT", 3_000_000);
        fixture.close();

        open(List.of("alice,,,,1000,,"), Map.of("MSFT", 1_000_000L, "AAPL", PRICE));
        fixture.enterOrder("M1").stock(Symbols.pack("MSFT")).price(3_300_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("M2").stock(Symbols.pack("MSFT")).price(3_300_100);
        fixture.send(fixture.alice);
        fixture.enterOrder("A1").price(1_650_100);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "M2", 'X'),
            new Rejected(T0, "A1", 'X')));
        assertThat(fixture.engine.commands()).hasSize(1);
    }

    @Test
    void shouldRejectEnterOrdersBeyondTheRateButNeverCancels() throws IOException
    {
        open(List.of("bob,,,,,3,"), Map.of());
        fixture.enterOrder("R1");
        fixture.send(fixture.bob);
        fixture.enterOrder("R2");
        fixture.send(fixture.bob);
        fixture.replaceOrder("R1", "R3").shares(90);
        fixture.send(fixture.bob);
        fixture.enterOrder("R4");
        fixture.send(fixture.bob);
        fixture.cancelOrder("R2", 0);
        fixture.send(fixture.bob);

        fixture.clock.set(NANO_TIME + 333_333_333, T1);
        fixture.enterOrder("R5");
        fixture.send(fixture.bob);
        fixture.enterOrder("R6");
        fixture.send(fixture.bob);
        fixture.clock.set(NANO_TIME + 2_000_000_000L, T2);
        for (int i = 7; i <= 10; i++)
        {
            fixture.enterOrder("R" + i);
            fixture.send(fixture.bob);
        }

        assertThat(fixture.messages(fixture.bob)).isEqualTo(List.of(
            new Rejected(T0, "R4", 'O'),
            new Rejected(T1, "R6", 'O'),
            new Rejected(T2, "R10", 'O')));
        assertThat(fixture.engine.commands().subList(2, 5)).isEqualTo(List.of(
            new Replace(0, T0, id(2, 1), id(2, 3), 90, PRICE, DAY),
            new Cancel(0, T0, id(2, 2), 0),
            new NewOrder(0, T1, id(2, 4), "AAPL", true, 100, PRICE, DAY, 0, "BOBS", 'Y', 'N')));
        assertThat(fixture.engine.commands()).hasSize(8);
        assertThat(fixture.rejects("rate_limit")).isEqualTo(3);
    }

    @Test
    void shouldTakeTheOrderOutOfTheBookWhenAReplaceIsBeyondTheRateAndKeepItsReplacementToken() throws IOException
    {
        open(List.of("bob,,,,,2,"), Map.of());
        fixture.enterOrder("R1");
        fixture.send(fixture.bob);
        fixture.enterOrder("R2");
        fixture.send(fixture.bob);
        fixture.replaceOrder("R1", "R3").shares(90);
        fixture.send(fixture.bob);
        fixture.clock.set(NANO_TIME + 1_000_000_000L, T1);
        fixture.replaceOrder("R2", "R3").shares(80);
        fixture.send(fixture.bob);

        assertThat(fixture.messages(fixture.bob)).isEmpty();
        assertThat(fixture.engine.commands().subList(2, 4)).isEqualTo(List.of(
            new Cancel(0, T0, id(2, 1), 0),
            new Replace(0, T1, id(2, 2), id(2, 3), 80, PRICE, DAY)));
        assertThat(fixture.rejects("rate_limit")).isEqualTo(1);
    }

    @Test
    void shouldHoldTheUsersOfAFirmToTheFirmsLimitsTogether() throws IOException
    {
        open(List.of(), List.of(FIRM_HEADER, "DEMO,1000,100000,3,,"), Map.of());
        carol();
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "A2", 'B', 2);
        enterAccepted(carol, "C1", 1);

        fixture.enterOrder("C2");
        fixture.send(carol);
        fixture.enterOrder("C3").shares(1001);
        fixture.send(carol);
        fixture.enterOrder("A3").shares(700);
        fixture.send(fixture.alice);
        fixture.replaceOrder("C1", "C1R").shares(1001);
        fixture.send(carol);
        fixture.enterOrder("B1").shares(5000);
        fixture.send(fixture.bob);
        fixture.events.canceled(T2, id(1, 1), 101, "AAPL", 100, 0, Ouch42.CANCEL_USER_REQUESTED);
        fixture.enterOrder("C4");
        fixture.send(carol);

        assertThat(fixture.messages(carol).subList(1, 3)).isEqualTo(List.of(
            new Rejected(T0, "C2", 'O'),
            new Rejected(T0, "C3", 'm')));
        assertThat(fixture.messages(fixture.alice).get(2)).isEqualTo(new Rejected(T0, "A3", 'n'));
        assertThat(fixture.engine.commands().subList(3, 6)).isEqualTo(List.of(
            new Cancel(0, T0, id(CAROL, 1), 0), // C1R beyond the firm's share limit: C1 leaves the book
            new NewOrder(0, T0, id(2, 1), "AAPL", true, 5000, PRICE, DAY, 0, "BOBS", 'Y', 'N'),
            new NewOrder(0, T0, id(CAROL, 2), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(fixture.rejects("firm_max_open_orders")).isEqualTo(1);
        assertThat(fixture.rejects("firm_max_order_shares")).isEqualTo(2);
        assertThat(fixture.rejects("firm_max_notional")).isEqualTo(1);
        assertThat(fixture.rejects("risk_max_open_orders")).isZero();
    }

    @Test
    void shouldRejectOrdersOutsideTheTighterOfTheUsersAndTheFirmsCollars() throws IOException
    {
        open(List.of("alice,,,,1000,,"), List.of("DEMO,,,,500,"), Map.of("AAPL", PRICE));

        for (final long price : new long[]{1_575_000, 1_575_100, 1_650_100})
        {
            fixture.enterOrder("B" + price).price(price);
            fixture.send(fixture.alice);
        }
        fixture.enterOrder("S1").buySellIndicator(Ouch42.SIDE_SELL).price(1_424_900);
        fixture.send(fixture.alice);
        fixture.enterOrder("BOB").price(1_575_100);
        fixture.send(fixture.bob);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "B1575100", 'X'),
            new Rejected(T0, "B1650100", 'X'),
            new Rejected(T0, "S1", 'X')));
        assertThat(fixture.engine.commands()).hasSize(2);
        assertThat(fixture.rejects("firm_price_band")).isEqualTo(2);
        assertThat(fixture.rejects("risk_price_band")).isEqualTo(1);
    }

    @Test
    void shouldRejectOrdersBeyondTheFirmsRateWithoutTakingTheUsersToken() throws IOException
    {
        open(List.of("alice,,,,,1,"), List.of("DEMO,,,,,2"), Map.of());
        carol();
        fixture.enterOrder("C1");
        fixture.send(carol);
        fixture.enterOrder("C2");
        fixture.send(carol);
        fixture.enterOrder("A1");
        fixture.send(fixture.alice);
        fixture.enterOrder("B1");
        fixture.send(fixture.bob);
        fixture.cancelOrder("C1", 0);
        fixture.send(carol);

        fixture.clock.set(NANO_TIME + 500_000_000, T1);
        fixture.enterOrder("A2");
        fixture.send(fixture.alice);
        fixture.enterOrder("C3");
        fixture.send(carol);

        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(new Rejected(T0, "A1", 'O')));
        assertThat(fixture.messages(carol)).isEqualTo(List.of(new Rejected(T1, "C3", 'O')));
        assertThat(fixture.engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(CAROL, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(CAROL, 2), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(2, 1), "AAPL", true, 100, PRICE, DAY, 0, "BOBS", 'Y', 'N'),
            new Cancel(0, T0, id(CAROL, 1), 0),
            new NewOrder(0, T1, id(1, 1), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'Y', 'N')));
        assertThat(fixture.rejects("firm_rate_limit")).isEqualTo(2);
        assertThat(fixture.rejects("rate_limit")).isZero();
    }

    @Test
    void shouldCancelEveryOrderOfASessionThatEndsUnlessTheUserTurnedItOff() throws IOException
    {
        open(List.of("bob,,,,,,N"), Map.of());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "A2", 'S', 2);
        fixture.replaceOrder("A2", "A3").shares(50);
        fixture.send(fixture.alice);
        fixture.enterOrder("A4").stock(Symbols.pack("MSFT"));
        fixture.send(fixture.alice);
        fixture.events.rejected(T1, id(1, 4), "MSFT", Ouch42.REJECT_HALTED);
        fixture.enterAccepted(fixture.bob, "B1", 'B', 1);
        final int before = fixture.engine.commands().size();

        fixture.clock.set(NANO_TIME, T2);
        fixture.adapter.onSessionEnd(fixture.alice);
        fixture.adapter.onSessionEnd(fixture.bob);

        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size()))
            .containsExactlyInAnyOrder(
                new Cancel(0, T2, id(1, 1), 0),
                new Cancel(0, T2, id(1, 2), 0),
                new Cancel(0, T2, id(1, 3), 0));
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_cancel_on_disconnect_total", null))
            .isEqualTo(3);
    }

    /**
     * A cancel on disconnect its shard cannot take when the session ends (down, or full) is kept, offered nothing
     * meanwhile, and sent once the shard can take it, at the next retry 100 ms on; one whose order is done meanwhile is
     * dropped.
     */
    @Test
    void shouldSendTheCancelsOnDisconnectAShardCouldNotTakeOnceItCan() throws IOException
    {
        open(List.of(), Map.of());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        fixture.enterAccepted(fixture.alice, "A2", 'S', 2);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;

        fixture.adapter.onSessionEnd(fixture.alice);
        fixture.events.canceled(T1, id(1, 2), 102, "AAPL", 100, 0, Ouch42.CANCEL_SUPERVISORY); // A2 done meanwhile
        fixture.engine.available = true;
        final int tooEarly = fixture.orderEntry.retryCancels();
        final int pending = fixture.orderEntry.cancelsToRetry();
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T2);
        final int retried = fixture.orderEntry.retryCancels();

        assertThat(tooEarly).isZero();
        assertThat(pending).isEqualTo(2);
        assertThat(retried).isEqualTo(1);
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T2, id(1, 1), 0));
        assertThat(Metrics.counter(fixture.registry, "bourse_gateway_cancel_on_disconnect_total", null))
            .isEqualTo(1);
    }

    /** A kept cancel sent when the user's next session ends, with its shard back, is not sent again by the retry. */
    @Test
    void shouldSendAKeptCancelOnDisconnectOnceWhenTheUsersNextSessionEnds() throws IOException
    {
        open(List.of(), Map.of());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        final int before = fixture.engine.commands().size();
        fixture.engine.available = false;
        fixture.adapter.onSessionEnd(fixture.alice);
        fixture.engine.available = true;

        fixture.adapter.onSessionEnd(fixture.alice);
        fixture.clock.set(NANO_TIME + OrderEntry.CANCEL_ON_DISCONNECT_RETRY_INTERVAL_NS, T2);
        final int retried = fixture.orderEntry.retryCancels();

        assertThat(retried).isZero();
        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T0, id(1, 1), 0));
    }

    @Test
    void shouldOfferTheKeptCancelsOnDisconnectOnceMoreAtAStop() throws IOException
    {
        open(List.of(), Map.of());
        fixture.enterAccepted(fixture.alice, "A1", 'B', 1);
        final int before = fixture.engine.commands().size();
        fixture.engine.roomForCommands = false;
        fixture.adapter.onSessionEnd(fixture.alice);

        fixture.orderEntry.sendCancelsOnDisconnectAtStop();

        assertThat(fixture.engine.commands().subList(before, fixture.engine.commands().size()))
            .containsExactly(new Cancel(0, T0, id(1, 1), 0));
        assertThat(fixture.orderEntry.cancelsToRetry()).isZero();
    }

    @Test
    void shouldTakeEmptyFieldsFromTheDefaultsAndUsersWithoutARowFromTheDefaults()
    {
        final RiskLimits.UserLimits defaults = new RiskLimits.UserLimits(10, 20, 30, 40, 50, true);
        final RiskLimits limits = RiskLimits.parse(defaults, List.of(
            "# comment", HEADER, "trdr01,1000,250000,100,500,20,N", "trdr02,,,7,,,Y", ""), List.of(), Map.of());

        assertThat(limits.forUser("trdr01")).isEqualTo(new RiskLimits.UserLimits(1000, 250_000, 100, 500, 20, false));
        assertThat(limits.forUser("trdr02")).isEqualTo(new RiskLimits.UserLimits(10, 20, 7, 40, 50, true));
        assertThat(limits.forUser("nobody")).isEqualTo(defaults);
    }

    @Test
    void shouldReadFirmRowsWithEmptyFieldsAsNoLimitAndFirmsWithoutARowAsUnlimited()
    {
        final RiskLimits limits = RiskLimits.parse(new RiskLimits.UserLimits(10, 20, 30, 40, 50, true), List.of(),
            List.of("# comment", FIRM_HEADER, "DEMO,1000,,5,,", " F1,1,2,3,4,5 ", ""), Map.of());

        assertThat(limits.forFirm(Ouch42.packFirm("DEMO"))).isEqualTo(new RiskLimits.FirmLimits(1000, 0, 5, 0, 0));
        assertThat(limits.forFirm(Ouch42.packFirm("F1"))).isEqualTo(new RiskLimits.FirmLimits(1, 2, 3, 4, 5));
        assertThat(limits.forFirm(Ouch42.packFirm("BOBS"))).isEqualTo(RiskLimits.NO_FIRM_LIMITS);
    }

    @Test
    void shouldNameTheLineOrSettingAtFaultWhenTheConfigurationIsBad(@TempDir final Path dir)
    {
        assertThatThrownBy(() -> users("trdr01,1,2,3"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trdr01,1,2,3");
        assertThatThrownBy(() -> users("trdr01,x,,,,,"))
            .hasMessageContaining("not a whole number").hasMessageContaining("trdr01,x,,,,,");
        assertThatThrownBy(() -> users("trdr01,,,,10001,,"))
            .hasMessageContaining("price_band_bp");
        assertThatThrownBy(() -> users("trdr01,,,,,,maybe"))
            .hasMessageContaining("cancel_on_disconnect");
        assertThatThrownBy(() -> users("trdr01,,,,,,Y", "trdr01,,,,,,N"))
            .hasMessageContaining("user given twice").hasMessageContaining("trdr01,,,,,,N");
        assertThatThrownBy(() -> firms("demo,,,,,")).hasMessageContaining("firm (1 to 4 upper-case letters or digits)");
        assertThatThrownBy(() -> firms("DEMOS,,,,,")).hasMessageContaining("DEMOS,,,,,");
        assertThatThrownBy(() -> firms("DEMO,,,,")).hasMessageContaining("firm risk limits: expected");
        assertThatThrownBy(() -> firms("DEMO,,,,10001,")).hasMessageContaining("price_band_bp");
        assertThatThrownBy(() -> firms("DEMO,,,,4294967396,")).hasMessageContaining("price_band_bp");
        assertThatThrownBy(() -> users("trdr01,,,,4294967396,,")).hasMessageContaining("price_band_bp");
        assertThatThrownBy(() -> firms("DEMO,-1,,,,")).hasMessageContaining("max_order_shares");
        assertThatThrownBy(() -> firms("DEMO,,,,,", "DEMO,1,,,,")).hasMessageContaining("firm given twice");
        assertThatThrownBy(() -> RiskLimits.fromSettings(new Settings(Map.of(
            Settings.environmentName(RiskLimits.FIRMS_FILE_PROP_NAME), dir.resolve("missing.csv").toString()))))
            .hasMessageContaining(RiskLimits.FIRMS_FILE_PROP_NAME);
        assertThatThrownBy(() -> RiskLimits.parseReferencePrices("AAPL:0"))
            .hasMessageContaining(RiskLimits.REFERENCE_PRICES_PROP_NAME);
        assertThatThrownBy(() -> RiskLimits.fromSettings(new Settings(Map.of(
            Settings.environmentName(RiskLimits.FILE_PROP_NAME), dir.resolve("missing.csv").toString()))))
            .hasMessageContaining(RiskLimits.FILE_PROP_NAME);
        assertThatThrownBy(() -> RiskLimits.fromSettings(new Settings(Map.of(
            Settings.environmentName(RiskLimits.ORDERS_PER_SECOND_PROP_NAME), "-1"))))
            .hasMessageContaining("orders_per_second");
        assertThatThrownBy(() -> RiskLimits.parse(RiskLimits.NO_LIMITS, List.of(), List.of(), Map.of("IBM", PRICE))
            .validate(SymbolDirectory.parse("AAPL@0")))
            .hasMessageContaining(RiskLimits.REFERENCE_PRICES_PROP_NAME).hasMessageContaining("IBM");
    }

    @Test
    void shouldReadDefaultsFromSettingsAndRowsFromTheFile(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.write(dir.resolve("risk.csv"), List.of(HEADER, "demo01,,,,,100,N"));
        final Path firmFile = Files.write(dir.resolve("firms.csv"), List.of(FIRM_HEADER, "DEMO,,,10,,"));

        final RiskLimits limits = RiskLimits.fromSettings(new Settings(Map.of(
            Settings.environmentName(RiskLimits.FILE_PROP_NAME), file.toString(),
            Settings.environmentName(RiskLimits.FIRMS_FILE_PROP_NAME), firmFile.toString(),
            Settings.environmentName(RiskLimits.MAX_ORDER_SHARES_PROP_NAME), "5000",
            Settings.environmentName(RiskLimits.MAX_NOTIONAL_PROP_NAME), "1000000",
            Settings.environmentName(RiskLimits.PRICE_BAND_BP_PROP_NAME), "1000",
            Settings.environmentName(RiskLimits.REFERENCE_PRICES_PROP_NAME), "AAPL:1500000, msft:3000000")));

        assertThat(limits.defaults()).isEqualTo(new RiskLimits.UserLimits(5000, 1_000_000, 0, 1000, 0, true));
        assertThat(limits.forUser("demo01")).isEqualTo(new RiskLimits.UserLimits(5000, 1_000_000, 0, 1000, 100, false));
        assertThat(limits.forFirm(Ouch42.packFirm("DEMO"))).isEqualTo(new RiskLimits.FirmLimits(0, 0, 10, 0, 0));
        assertThat(limits.referencePrice("MSFT")).isEqualTo(3_000_000);
        assertThat(limits.referencePrice("GOOG")).isZero();
        assertThat(RiskLimits.fromSettings(new Settings(Map.of())).defaults()).isEqualTo(RiskLimits.NO_LIMITS);
    }

    @Test
    void shouldParseTheShippedLimitsFile()
    {
        final RiskLimits limits = RiskLimits.fromSettings(new Settings(Map.of(
            Settings.environmentName(RiskLimits.FILE_PROP_NAME), "../../" + RiskLimits.FILE_DEFAULT,
            Settings.environmentName(RiskLimits.FIRMS_FILE_PROP_NAME), "../../" + RiskLimits.FIRMS_FILE_DEFAULT)));

        assertThat(limits.forUser("trdr01").cancelOnDisconnect()).isTrue();
        assertThat(limits.forUser("trdr02").cancelOnDisconnect()).isFalse();
        assertThat(limits.forUser("demo01").maxOrderShares()).isPositive();
        assertThat(limits.forFirm(Ouch42.packFirm("FIRM")).maxOpenOrders())
            .isGreaterThan(limits.forUser("trdr01").maxOpenOrders());
        assertThat(limits.forFirm(Ouch42.packFirm("DEMO")).maxOpenOrders()).isPositive();
    }

    /**
     * Hears a trade of 100 shares between two orders of another gateway (gateway id 2), as the engine's event stream
     * carries it to every gateway.
     *
     * @param matchNumber the execution's match number.
     * @param symbol      the symbol traded.
     * @param price       its price, in 1/10000 dollars.
     */
    private void tradeOfAnotherGateway(final long matchNumber, final String symbol, final long price)
    {
        fixture.events.executed(T1, matchNumber, symbol, 100, price, OTHER_GATEWAY | 1, 11, Side.BUY,
            OTHER_GATEWAY | 2, 10, 0, 0);
    }

    /** Hears an operator break that trade, as the engine's event stream carries it to every gateway. */
    private void tradeOfAnotherGatewayBroken(final long matchNumber, final String symbol, final long price)
    {
        fixture.events.tradeBroken(T2, matchNumber, symbol, 100, price, OTHER_GATEWAY | 1, 11, OTHER_GATEWAY | 2, 10,
            (byte)'E');
    }

    private void open(final List<String> rows, final Map<String, Long> referencePrices) throws IOException
    {
        open(rows, List.of(), referencePrices);
    }

    private void open(final List<String> rows, final List<String> firmRows, final Map<String, Long> referencePrices)
        throws IOException
    {
        fixture = new OrderEntryFixture(
            journalDir, RiskLimits.parse(RiskLimits.NO_LIMITS, rows, firmRows, referencePrices));
    }

    /** Opens {@link #carol}, a third user, of alice's firm, ready to trade. */
    private void carol() throws IOException
    {
        carol = new UserSession("carol", OrderEntryTest.firm("DEMO"), OrderEntryFixture.GATEWAY_ID, CAROL, 2,
            SessionJournal.open(journalDir.resolve("carol.journal"), JournalSync.NONE), fixture.metrics);
        new OrderRebuild(fixture.orderEntry, 2).rebuild(carol);
    }

    private void enterAccepted(final UserSession session, final String token, final long count)
    {
        fixture.enterOrder(token);
        fixture.send(session);
        fixture.events.accepted(T1, id(CAROL, count), 200 + count, "AAPL", Side.BUY, 100, PRICE, DAY);
    }

    private static RiskLimits users(final String... rows)
    {
        return RiskLimits.parse(RiskLimits.NO_LIMITS, List.of(rows), List.of(), Map.of());
    }

    private static RiskLimits firms(final String... rows)
    {
        return RiskLimits.parse(RiskLimits.NO_LIMITS, List.of(), List.of(rows), Map.of());
    }
}
