package io.bourse.gateway;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@link OrderEntry} driven as the gateway agent drives it, without sockets or Aeron: OUCH requests through the
 * {@link OrderEntryAdapter}, engine events as SBE through the {@link EngineEventAdapter}, engine commands recorded,
 * the clock set by hand. Two users with journals: alice (firm DEMO, session index 1) and bob (BOBS, 2). A request is
 * prepared with valid defaults (a day buy of 100 AAPL at $150.00, anonymous, agency, no minimum, no cross), adjusted
 * through the returned flyweight, then sent with {@link #send}. A fixture opened on the journals of a closed one is a
 * restarted gateway: its sessions take new session indexes and their orders are rebuilt from the journals
 * ({@link OrderRebuild}), as {@link SessionRegistry#restoreSessions} does.
 */
final class OrderEntryFixture implements AutoCloseable
{
    static final int GATEWAY_ID = 1;
    static final long T0 = 36_000_000_000_000L;
    static final long T1 = T0 + 1_000;
    static final long T2 = T0 + 2_000;
    static final long NANO_TIME = 1_000_000_000L;
    static final long PRICE = 1_500_000;
    static final long DAY = Ouch42.TIME_IN_FORCE_MARKET_HOURS;
    static final long MAX_ORDER_SHARES = GatewayContext.MAX_ORDER_SHARES_DEFAULT;

    final PrometheusRegistry registry = new PrometheusRegistry();
    final GatewayMetrics metrics = new GatewayMetrics(registry);
    final DutyCycleClock clock = new DutyCycleClock(null);
    final RecordingEngineProxy engine = new RecordingEngineProxy();
    final OuchProxy ouch = new OuchProxy(metrics);
    final OrderEntry orderEntry;
    final OrderEntryAdapter adapter;
    final EngineEvents events;
    final UserSession alice;
    final UserSession bob;
    final int aliceIndex;
    final int bobIndex;
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[64]);
    private final CollarReferences collarReferences;
    private int requestLength;

    /**
     * @param journalDir where the users' journals go.
     * @param limits     the users' pre-trade limits and options.
     * @throws IOException when a journal cannot be created.
     */
    OrderEntryFixture(final Path journalDir, final RiskLimits limits) throws IOException
    {
        this(journalDir, limits, 1, 2);
    }

    /**
     * @param journalDir where the users' journals are, or go.
     * @param limits     the users' pre-trade limits and options.
     * @param aliceIndex alice's session index, one never used on the journals before.
     * @param bobIndex   bob's session index, one never used on the journals before.
     * @throws IOException when a journal cannot be opened or read.
     */
    OrderEntryFixture(final Path journalDir, final RiskLimits limits, final int aliceIndex, final int bobIndex)
        throws IOException
    {
        this(journalDir, limits, aliceIndex, bobIndex, 0);
    }

    /**
     * @param journalDir         where the users' journals are, or go.
     * @param limits             the users' pre-trade limits and options.
     * @param aliceIndex         alice's session index, one never used on the journals before.
     * @param bobIndex           bob's session index, one never used on the journals before.
     * @param mediaDriverStartMs start time of the media driver the gateway's commands go through ({@link
     *                           MediaDriverStart}), or 0 for not known.
     * @throws IOException when a journal cannot be opened or read.
     */
    OrderEntryFixture(
        final Path journalDir, final RiskLimits limits, final int aliceIndex, final int bobIndex,
        final long mediaDriverStartMs)
        throws IOException
    {
        this(journalDir, limits, aliceIndex, bobIndex,
            GatewayContext.MAX_SESSION_TOKENS_DEFAULT, GatewayContext.MAX_DAY_TOKENS_DEFAULT, mediaDriverStartMs);
    }

    /**
     * @param journalDir       where the users' journals are, or go.
     * @param limits           the users' pre-trade limits and options.
     * @param aliceIndex       alice's session index, one never used on the journals before.
     * @param bobIndex         bob's session index, one never used on the journals before.
     * @param maxSessionTokens the day's Order Token capacity of each session.
     * @param maxDayTokens     the day's Order Token capacity of the gateway.
     * @throws IOException when a journal cannot be opened or read.
     */
    OrderEntryFixture(
        final Path journalDir,
        final RiskLimits limits,
        final int aliceIndex,
        final int bobIndex,
        final long maxSessionTokens,
        final long maxDayTokens)
        throws IOException
    {
        this(journalDir, limits, aliceIndex, bobIndex, maxSessionTokens, maxDayTokens, 0);
    }

    /**
     * @param journalDir       where the users' journals are, or go.
     * @param limits           the users' pre-trade limits and options.
     * @param aliceIndex       alice's session index, one never used on the journals before.
     * @param bobIndex         bob's session index, one never used on the journals before.
     * @param maxSessionTokens the day's Order Token capacity of each session.
     * @param maxDayTokens     the day's Order Token capacity of the gateway.
     * @param mediaDriverStartMs start time of the media driver the gateway's commands go through, or 0 for not known.
     * @throws IOException when a journal cannot be opened or read.
     */
    OrderEntryFixture(
        final Path journalDir,
        final RiskLimits limits,
        final int aliceIndex,
        final int bobIndex,
        final long maxSessionTokens,
        final long maxDayTokens,
        final long mediaDriverStartMs)
        throws IOException
    {
        clock.set(NANO_TIME, T0);
        final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
        collarReferences = CollarReferences.open(journalDir, symbols);
        orderEntry = new OrderEntry(GATEWAY_ID, MAX_ORDER_SHARES, maxSessionTokens, maxDayTokens, symbols, limits,
            collarReferences, engine, ouch, metrics, clock, new SessionIndexes(Math.max(aliceIndex, bobIndex)),
            mediaDriverStartMs);
        adapter = new OrderEntryAdapter(orderEntry, metrics);
        events = new EngineEvents(EngineEvents.adapter(orderEntry, metrics));
        this.aliceIndex = aliceIndex;
        this.bobIndex = bobIndex;
        alice = new UserSession("alice", OrderEntryTest.firm("DEMO"), GATEWAY_ID, aliceIndex, 2,
            SessionJournal.open(journalDir.resolve("alice.journal"), JournalSync.NONE), metrics);
        bob = new UserSession("bob", OrderEntryTest.firm("BOBS"), GATEWAY_ID, bobIndex, 2,
            SessionJournal.open(journalDir.resolve("bob.journal"), JournalSync.NONE), metrics);
        final OrderRebuild rebuild = new OrderRebuild(orderEntry, symbols.shardCount());
        rebuild.rebuild(alice);
        rebuild.rebuild(bob);
    }

    /**
     * @param sessionIndex 1 for alice, 2 for bob.
     * @param count        the session's order count.
     * @return the clientOrderId the gateway gives that order.
     */
    static long id(final int sessionIndex, final long count)
    {
        return ((long)GATEWAY_ID << 56) | ((long)sessionIndex << 32) | count;
    }

    /**
     * @param token the Order Token.
     * @return a valid Enter Order to adjust before {@link #send}.
     */
    EnterOrder enterOrder(final String token)
    {
        requestLength = EnterOrder.LENGTH;
        return EnterOrders.encode(request, token, "AAPL");
    }

    /**
     * @param existing    the token of the order to replace.
     * @param replacement the new token.
     * @return a valid Replace Order (100 shares at $150.00, day, anonymous) to adjust before {@link #send}.
     */
    ReplaceOrder replaceOrder(final String existing, final String replacement)
    {
        requestLength = ReplaceOrder.LENGTH;
        return new ReplaceOrder().wrapAndApplyType(request, 0)
            .existingOrderToken(existing)
            .replacementOrderToken(replacement)
            .shares(100)
            .price(PRICE)
            .timeInForce(DAY)
            .display(Ouch42.DISPLAY_ANONYMOUS)
            .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
            .minimumQuantity(0);
    }

    /**
     * @param token  the order's token.
     * @param shares the new intended size.
     * @return the Cancel Order, ready to send.
     */
    CancelOrder cancelOrder(final String token, final long shares)
    {
        requestLength = CancelOrder.LENGTH;
        return new CancelOrder().wrapAndApplyType(request, 0).orderToken(token).shares(shares);
    }

    /**
     * @param token  the order's token.
     * @param side   the new Buy/Sell Indicator.
     * @param shares the new intended size.
     * @return the Modify Order, ready to send.
     */
    ModifyOrder modifyOrder(final String token, final char side, final long shares)
    {
        requestLength = ModifyOrder.LENGTH;
        return new ModifyOrder().wrapAndApplyType(request, 0)
            .orderToken(token)
            .buySellIndicator((byte)side)
            .shares(shares);
    }

    /**
     * Sends the request prepared last.
     *
     * @param session the sender.
     */
    void send(final UserSession session)
    {
        assertThat(adapter.onMessage(session, request, 0, requestLength)).isEqualTo(OrderEntryAdapter.OK);
    }

    /**
     * Enters a valid day order and has the engine accept it whole.
     *
     * @param session the sender.
     * @param token   the Order Token.
     * @param side    Buy/Sell Indicator.
     * @param count   the session's order count the gateway will give it.
     */
    void enterAccepted(final UserSession session, final String token, final char side, final long count)
    {
        enterOrder(token).buySellIndicator((byte)side);
        send(session);
        events.accepted(T1, id(session == alice ? aliceIndex : bobIndex, count), 100 + count, "AAPL",
            Ouch42.SIDE_BUY == side ? Side.BUY : Side.SELL, 100, PRICE, DAY);
    }

    /**
     * Ends the session's day as the close does ({@link SessionRegistry#endDay()}): its System Event End of Day
     * journaled at the clock's time.
     *
     * @param session the session.
     */
    void endDay(final UserSession session)
    {
        session.journalEndOfDay(ouch, clock.midnightNs());
    }

    /**
     * @param session a session.
     * @return every sequenced message it has, decoded.
     */
    List<Object> messages(final UserSession session)
    {
        return OuchMessages.of(session);
    }

    /**
     * @param reason a {@code bourse_gateway_rejects_total} label.
     * @return its count.
     */
    double rejects(final String reason)
    {
        return Metrics.counter(registry, "bourse_gateway_rejects_total", reason);
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(alice.journal(), bob.journal(), collarReferences);
    }
}
