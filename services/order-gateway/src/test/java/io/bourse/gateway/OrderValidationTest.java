package io.bourse.gateway;

import io.bourse.common.config.Symbols;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
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
import static io.bourse.gateway.OrderEntryFixture.MAX_ORDER_SHARES;
import static io.bourse.gateway.OrderEntryFixture.PRICE;
import static io.bourse.gateway.OrderEntryFixture.T0;
import static io.bourse.gateway.OrderEntryFixture.T1;
import static io.bourse.gateway.OrderEntryFixture.id;
import static org.assertj.core.api.Assertions.assertThat;

/** Every field rule of Enter Order and Replace Order, through the order entry, each with its OUCH 4.2 reason. */
class OrderValidationTest
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
    void shouldRejectTokensOutsidePrintableAsciiOrBlankAndIgnoreOneUsedToday()
    {
        fixture.enterOrder("DEL\u007F");
        fixture.send(fixture.alice);
        final byte[] nonAscii = "LATIN1        ".getBytes();
        nonAscii[6] = (byte)0xC3;
        fixture.enterOrder("X").orderToken(nonAscii);
        fixture.send(fixture.alice);
        fixture.enterOrder("");
        fixture.send(fixture.alice);
        fixture.enterOrder("~printable!");
        fixture.send(fixture.alice);
        fixture.enterOrder("~printable!");
        fixture.send(fixture.alice);
        fixture.enterOrder("~printable!");
        fixture.send(fixture.bob);

        final List<Object> messages = fixture.messages(fixture.alice);
        assertThat(((Rejected)messages.get(1)).reason()).isEqualTo('O');
        assertThat(List.of(messages.get(0), messages.get(2))).isEqualTo(List.of(
            new Rejected(T0, "DEL\u007F", 'O'),
            new Rejected(T0, "", 'O')));
        assertThat(messages).as("the used token silently ignored").hasSize(3);
        assertThat(fixture.engine.commands()).hasSize(2);
        assertThat(fixture.rejects("invalid_token")).isEqualTo(3);
        assertThat(fixture.rejects("duplicate_token")).isEqualTo(1);
    }

    @Test
    void shouldRejectEachInvalidEnterOrderFieldWithItsOuchReason()
    {
        fixture.enterOrder("SIDE").buySellIndicator((byte)'X');
        fixture.send(fixture.alice);
        fixture.enterOrder("ZERO").shares(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("HUGE").shares(MAX_ORDER_SHARES + 1);
        fixture.send(fixture.alice);
        fixture.enterOrder("STOCK").stock(Symbols.pack("IBM"));
        fixture.send(fixture.alice);
        fixture.enterOrder("FREE").price(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("DEAR").price(Ouch42.MAX_PRICE + 100);
        fixture.send(fixture.alice);
        fixture.enterOrder("HALFCENT").price(PRICE + 50);
        fixture.send(fixture.alice);
        fixture.enterOrder("TIF").timeInForce(100_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("LOWER").firm("demo");
        fixture.send(fixture.alice);
        fixture.enterOrder("GAP").firm("A BC");
        fixture.send(fixture.alice);
        fixture.enterOrder("IMBALANCE").display(Ouch42.DISPLAY_IMBALANCE_ONLY);
        fixture.send(fixture.alice);
        fixture.enterOrder("POSTIOC").display(Ouch42.DISPLAY_POST_ONLY).timeInForce(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("CAPACITY").capacity((byte)'X');
        fixture.send(fixture.alice);
        fixture.enterOrder("ISE").intermarketSweepEligibility((byte)'Z');
        fixture.send(fixture.alice);
        fixture.enterOrder("MINABOVE").minimumQuantity(101).timeInForce(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("MINDAY").minimumQuantity(10);
        fixture.send(fixture.alice);
        fixture.enterOrder("OPENING").crossType(Ouch42.CROSS_TYPE_OPENING);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEIOC").crossType(Ouch42.CROSS_TYPE_CLOSING).timeInForce(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEGTS").crossType(Ouch42.CROSS_TYPE_CLOSING).timeInForce(60);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEHIDDEN").crossType(Ouch42.CROSS_TYPE_CLOSING).display(Ouch42.DISPLAY_NON_DISPLAY);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEPOST").crossType(Ouch42.CROSS_TYPE_CLOSING).display(Ouch42.DISPLAY_POST_ONLY);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEPEG").crossType(Ouch42.CROSS_TYPE_CLOSING).display(Ouch42.DISPLAY_MID_POINT_PEG);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEMIN").crossType(Ouch42.CROSS_TYPE_CLOSING).minimumQuantity(10);
        fixture.send(fixture.alice);
        fixture.enterOrder("CLOSEMINIOC").crossType(Ouch42.CROSS_TYPE_CLOSING).minimumQuantity(10).timeInForce(0);
        fixture.send(fixture.alice);
        fixture.enterOrder("HALT").crossType(Ouch42.CROSS_TYPE_HALT_IPO);
        fixture.send(fixture.alice);
        fixture.enterOrder("CROSS").crossType((byte)'Q');
        fixture.send(fixture.alice);
        fixture.enterOrder("CUSTOMER").customerType((byte)'X');
        fixture.send(fixture.alice);

        assertThat(fixture.engine.commands()).isEmpty();
        assertThat(fixture.messages(fixture.alice)).isEqualTo(List.of(
            new Rejected(T0, "SIDE", 'O'),
            new Rejected(T0, "ZERO", 'Z'),
            new Rejected(T0, "HUGE", 'Z'),
            new Rejected(T0, "STOCK", 'S'),
            new Rejected(T0, "FREE", 'X'),
            new Rejected(T0, "DEAR", 'X'),
            new Rejected(T0, "HALFCENT", 'X'),
            new Rejected(T0, "TIF", 'O'),
            new Rejected(T0, "LOWER", 'O'),
            new Rejected(T0, "GAP", 'O'),
            new Rejected(T0, "IMBALANCE", 'D'),
            new Rejected(T0, "POSTIOC", 'D'),
            new Rejected(T0, "CAPACITY", 'O'),
            new Rejected(T0, "ISE", 'O'),
            new Rejected(T0, "MINABOVE", 'N'),
            new Rejected(T0, "MINDAY", 'N'),
            new Rejected(T0, "OPENING", 'R'),
            new Rejected(T0, "CLOSEIOC", 'R'),
            new Rejected(T0, "CLOSEGTS", 'R'),
            new Rejected(T0, "CLOSEHIDDEN", 'D'),
            new Rejected(T0, "CLOSEPOST", 'D'),
            new Rejected(T0, "CLOSEPEG", 'D'),
            new Rejected(T0, "CLOSEMIN", 'N'),
            new Rejected(T0, "CLOSEMINIOC", 'R'),
            new Rejected(T0, "HALT", 'R'),
            new Rejected(T0, "CROSS", 'O'),
            new Rejected(T0, "CUSTOMER", 'O')));
        assertThat(List.of("invalid_side", "invalid_shares", "invalid_stock", "invalid_price", "off_tick_price",
            "invalid_time_in_force", "invalid_firm", "invalid_display", "invalid_capacity", "invalid_intermarket_sweep",
            "invalid_minimum_quantity", "cross_not_supported", "cross_time_in_force", "cross_display",
            "invalid_cross_type", "invalid_customer_type")
            .stream().map(fixture::rejects).toList())
            .isEqualTo(List.of(1.0, 2.0, 1.0, 2.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 3.0, 2.0, 3.0, 3.0, 1.0, 1.0));
    }

    @Test
    void shouldAcceptEveryValidValueAtTheEdgesOfTheRules()
    {
        fixture.enterOrder("DOLLAR").price(10_000);
        fixture.send(fixture.alice);
        fixture.enterOrder("SUBDOLLAR").price(9_999).buySellIndicator(Ouch42.SIDE_SELL_SHORT);
        fixture.send(fixture.alice);
        fixture.enterOrder("MAX").price(Ouch42.MAX_PRICE).shares(MAX_ORDER_SHARES)
            .buySellIndicator(Ouch42.SIDE_SELL_SHORT_EXEMPT);
        fixture.send(fixture.alice);
        fixture.enterOrder("MIN").price(1).shares(1).timeInForce(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)
            .capacity(Ouch42.CAPACITY_PRINCIPAL).customerType(Ouch42.CUSTOMER_TYPE_RETAIL);
        fixture.send(fixture.alice);
        fixture.enterOrder("FOK").timeInForce(0).minimumQuantity(100).firm("DEMO")
            .capacity(Ouch42.CAPACITY_RISKLESS).intermarketSweepEligibility(Ouch42.ISE_ELIGIBLE)
            .customerType(Ouch42.CUSTOMER_TYPE_NOT_RETAIL);
        fixture.send(fixture.alice);
        fixture.enterOrder("OTHER").capacity(Ouch42.CAPACITY_OTHER).display(Ouch42.DISPLAY_POST_ONLY).timeInForce(1);
        fixture.send(fixture.alice);
        fixture.enterOrder("LOC").crossType(Ouch42.CROSS_TYPE_CLOSING).display(Ouch42.DISPLAY_ATTRIBUTABLE);
        fixture.send(fixture.alice);
        fixture.enterOrder("LOCSYSTEM").crossType(Ouch42.CROSS_TYPE_CLOSING)
            .timeInForce(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).isEmpty();
        assertThat(fixture.engine.commands()).isEqualTo(List.of(
            new NewOrder(0, T0, id(1, 1), "AAPL", true, 100, 10_000, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(1, 2), "AAPL", false, 100, 9_999, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(1, 3), "AAPL", false, MAX_ORDER_SHARES, Ouch42.MAX_PRICE, DAY, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(1, 4), "AAPL", true, 1, 1, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS, 0, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(1, 5), "AAPL", true, 100, PRICE, 0, 100, "DEMO", 'Y', 'N'),
            new NewOrder(0, T0, id(1, 6), "AAPL", true, 100, PRICE, 1, 0, "DEMO", 'P', 'N'),
            new NewOrder(0, T0, id(1, 7), "AAPL", true, 100, PRICE, DAY, 0, "DEMO", 'A', 'C'),
            new NewOrder(0, T0, id(1, 8), "AAPL", true, 100, PRICE, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS, 0, "DEMO", 'Y',
                'C')));
    }

    /**
     * OUCH 4.2 &sect;2.2: a Replace Order of a live order with invalid details takes the existing order out of the
     * book, and does not consume the replacement token; one whose existing order is not live is silently ignored. The
     * engine's Canceled for A1 never comes here, so every replace finds A1 open.
     */
    @Test
    void shouldCancelTheOrderForEachInvalidReplaceOrderFieldAndKeepTheReplacementTokenFree()
    {
        fixture.enterOrder("A1");
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY);

        fixture.replaceOrder("A1", "BAD\u0001");
        fixture.send(fixture.alice);
        fixture.replaceOrder("NONE", "R1");
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R2").shares(MAX_ORDER_SHARES + 1);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R3").price(PRICE + 1);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R4").price(0);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R5").timeInForce(100_000);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R6").display(Ouch42.DISPLAY_NON_DISPLAY);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R7").intermarketSweepEligibility((byte)'Q');
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R8").minimumQuantity(5);
        fixture.send(fixture.alice);
        fixture.replaceOrder("A1", "R3").shares(50).price(PRICE - 100);
        fixture.send(fixture.alice);

        assertThat(fixture.messages(fixture.alice)).as("A1's Accepted only").hasSize(1);
        final Cancel cancelA1 = new Cancel(0, T0, id(1, 1), 0);
        assertThat(fixture.engine.commands().subList(1, 10)).isEqualTo(List.of(
            cancelA1, cancelA1, cancelA1, cancelA1, cancelA1, cancelA1, cancelA1, cancelA1,
            new Replace(0, T0, id(1, 1), id(1, 2), 50, PRICE - 100, DAY)));
        assertThat(fixture.rejects("invalid_token")).isEqualTo(1);
        assertThat(fixture.rejects("unknown_order")).isEqualTo(1);
        assertThat(fixture.rejects("invalid_shares")).isEqualTo(1);
        assertThat(fixture.rejects("off_tick_price")).isEqualTo(1);
        assertThat(fixture.rejects("invalid_price")).isEqualTo(1);
        assertThat(fixture.rejects("invalid_time_in_force")).isEqualTo(1);
        assertThat(fixture.rejects("display_change")).isEqualTo(1);
        assertThat(fixture.rejects("invalid_intermarket_sweep")).isEqualTo(1);
        assertThat(fixture.rejects("replace_minimum_quantity")).isEqualTo(1);
        assertThat(fixture.orderEntry.openOrderCount()).isEqualTo(2);
    }

    /**
     * A Replace Order's Time in Force must be one its order could have been entered with: not immediate-or-cancel for
     * a post-only order ('D'), market or system hours for a closing-cross order ('R').
     */
    @Test
    void shouldRefuseAReplacementTimeInForceTheOrderCouldNotBeEnteredWith()
    {
        fixture.enterOrder("POST").display(Ouch42.DISPLAY_POST_ONLY);
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 1), 7, "AAPL", Side.BUY, 100, PRICE, DAY, 'P');
        fixture.enterOrder("CLOSE").crossType(Ouch42.CROSS_TYPE_CLOSING);
        fixture.send(fixture.alice);
        fixture.events.accepted(T1, id(1, 2), 8, "AAPL", Side.BUY, 100, PRICE, DAY);

        fixture.replaceOrder("POST", "R1").display(Ouch42.DISPLAY_POST_ONLY).timeInForce(0);
        fixture.send(fixture.alice);
        fixture.replaceOrder("CLOSE", "R2").timeInForce(60);
        fixture.send(fixture.alice);
        fixture.replaceOrder("CLOSE", "R3").timeInForce(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
        fixture.send(fixture.alice);

        // The post-only order leaves the book; the closing-cross one stays, its replace Rejected (OUCH 4.2 §2.2).
        assertThat(fixture.messages(fixture.alice).subList(2, 3)).isEqualTo(List.of(new Rejected(T0, "R2", 'R')));
        assertThat(fixture.engine.commands().subList(2, 4)).isEqualTo(List.of(
            new Cancel(0, T0, id(1, 1), 0),
            new Replace(0, T0, id(1, 2), id(1, 3), 100, PRICE, Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)));
        assertThat(fixture.rejects("cross_time_in_force")).isEqualTo(1);
    }
}
