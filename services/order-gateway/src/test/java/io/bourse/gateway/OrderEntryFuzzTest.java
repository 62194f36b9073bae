package io.bourse.gateway;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.gateway.OuchMessages.Accepted;
import io.bourse.gateway.OuchMessages.CancelPendingMessage;
import io.bourse.gateway.OuchMessages.CancelRejectMessage;
import io.bourse.gateway.OuchMessages.Canceled;
import io.bourse.gateway.OuchMessages.Executed;
import io.bourse.gateway.OuchMessages.Modified;
import io.bourse.gateway.OuchMessages.Rejected;
import io.bourse.gateway.OuchMessages.Replaced;
import io.bourse.gateway.RecordingEngineProxy.Cancel;
import io.bourse.gateway.RecordingEngineProxy.NewOrder;
import io.bourse.gateway.RecordingEngineProxy.Replace;
import io.bourse.ouch.CancelOrder;
import io.bourse.ouch.EnterOrder;
import io.bourse.ouch.ModifyOrder;
import io.bourse.ouch.Ouch42;
import io.bourse.ouch.ReplaceOrder;
import io.bourse.sbe.engine.Side;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the OUCH 4.2 decoding ({@link OrderEntryAdapter}) and the order logic ({@link OrderEntry}) with arbitrary
 * request payloads from two users, interleaved with the engine's answers, and checks after every step that each
 * request got exactly the answer OUCH 4.2 and the gateway's rules require, in its sender's session only.
 * <p>
 * Checked after a request: a payload of unknown type or of the wrong length for its type is counted and reported (the
 * caller ends the session) with nothing sent anywhere; an Enter Order yields nothing at all for a token the session
 * used before (a resend: OUCH 4.2 &sect;1.1), else either one engine New Order, carrying the request's fields and only
 * valid ones, or one Rejected for its token, never both and never neither (a command the engine cannot take is the one
 * case of both, answered Rejected 'H'); a Replace Order yields one engine Replace for an open order of the session
 * (Rejected 'H' for the replacement token when the engine cannot take it), or one Cancel of that order to 0 shares and
 * no message (a replacement of 0 shares, its token used all the same, or one the gateway refuses, its token not
 * consumed: OUCH 4.2 &sect;2.2), or for a closing-cross order the gateway refuses one Rejected for the replacement
 * token, or nothing at all (no open order of that token, or a replacement token used before); a Cancel Order yields at
 * most an engine Cancel to its size and no message; a Modify Order at most an engine Cancel and Order Modified messages
 * for its token, never a Rejected. A client's cancel the engine could not take is kept: the order's next Replace,
 * Cancel or Modify Order sends the kept ones first (the engine takes them in the client's order), or, while the engine
 * still cannot take them, offers nothing (a Replace Order then Rejected 'H', a cancel kept behind them); the clock's
 * retries send kept cancels only, and none once taken. Checked after an engine event: Accepted, Replaced and Rejected
 * answer with one message of their kind for the order's token (Accepted and Replaced with the order's Cross Type, then
 * only Order Modified messages, for Modify Orders that came before the engine acknowledged the order); Canceled and
 * Executed with one Canceled (or Order Modified) or Executed (liquidity flag 'C' in the closing cross), CancelPending
 * and CancelRejected with one Cancel Pending or Cancel Reject, then only Order Modified messages; CrossCompleted with
 * nothing. After every step the gateway's count of open orders matches the engine's. Which tokens a session used the
 * test records itself from the answers (a valid token of an Enter Order, of a Replace Order sent on or Rejected, of a
 * replacement of 0 shares), and the gateway's token index must agree before every request.
 * <p>
 * The engine records the commands ({@link RecordingEngineProxy}) and answers, when the input says so, with SBE events
 * through the real {@link EngineEventAdapter}, as a matching engine with an empty book would: New Order accepted (an
 * immediate-or-cancel one then canceled 'I'), Replace replaced when the order rests (an immediate-or-cancel replacement
 * then canceled 'I'), Cancel canceled down to its size, or a rejection with any reason; resting orders trade with
 * another gateway's orders. Closing-cross orders (Cross Type C) rest apart and never trade continuously; while the
 * cross is locked a cancel of one to 0 shares is pending
 * (CancelPending), to fewer shares rejected (CancelRejected), and an entry or a replace of one is rejected 'M'; the
 * cross executes each, oldest first, against another gateway's order, then cancels what is left ('U' when its cancel
 * was pending, else 'C'), reports CrossCompleted and unlocks. So the order states the fuzzer reaches are those a real
 * engine leads to, at a few microseconds a step (the real engine sits behind Aeron).
 * <p>
 * The input is a sequence of steps, each a control byte c and its operands. The sender is alice (no limits) when bit 0
 * of c is 0, bob (pre-trade limits: 500 shares, $100,000, 3 open orders, 10% collar around $150.00 for AAPL, 50
 * orders/s) otherwise; {@code (c >>> 1) % 5} chooses: 0 a request, a length byte n then n payload bytes (fewer at the
 * end of the input); 1 the engine answers its oldest unanswered command; 2 the engine rejects its oldest unanswered New
 * Order or Replace with the reason in the next byte; 3 the oldest resting order of the continuous book trades 1 + the
 * next byte shares (at most its size); 4 the engine stops, or resumes, taking commands, or when bit 6 of c is set (and
 * not bit 7) locks the closing cross of every symbol, or runs it when locked, each closing-cross order executing the
 * next byte's shares (at most its size), or when bit 7 of c is set the gateway restarts: a new order entry on the same
 * journals, the users with new session indexes and their orders rebuilt ({@link OrderRebuild}), facing the same engine,
 * which answers what it has not answered yet; the engine's last event reaches the new gateway again and must change
 * nothing. The clock advances 1 ms a step. The checks hold across restarts: a rebuilt gateway must know every token,
 * every open order (with its shares, for Modify Orders) and every order awaiting the engine's answer as the first one
 * did, and give no clientOrderId twice.
 * <p>
 * Regression inputs are in {@code src/test/resources/io/bourse/gateway/OrderEntryFuzzTestInputs/}; a long run: see the
 * README, "Fuzzing the gateway and the fanout".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderEntryFuzzTest
{
    /**
     * The open order a Replace, Cancel or Modify Order named when it was sent: its clientOrderId, Cross Type, and
     * whether a cancel of it was kept (the shard could not take it) and not sent since.
     */
    private record Target(long clientOrderId, byte crossType, boolean cancelKept)
    {
    }

    private static final int GATEWAY_ID = 1;
    private static final int OTHER_GATEWAY_ID = 2;
    private static final long MAX_ORDER_SHARES = GatewayContext.MAX_ORDER_SHARES_DEFAULT;
    /** Every restart is on the same media driver: the engine still answers the orders sent before it. */
    private static final long MEDIA_DRIVER_START_MS = 1_700_000_000_000L;
    private static final long T0 = 36_000_000_000_000L;
    private static final int ACTIONS = 5;
    /** Bit of the control byte that turns action 4 into a gateway restart. */
    private static final int RESTART = 0x80;
    /** Bit of the control byte that turns action 4 into a cross lock, or a cross run when locked. */
    private static final int CROSS = 0x40;
    private static final byte[] GATEWAY_REJECT_REASONS = gatewayRejectReasons();

    /** Shared by every input: the metrics are only read as differences. */
    private final GatewayMetrics metrics = new GatewayMetrics(new PrometheusRegistry());
    private final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
    private final RiskLimits limits = RiskLimits.parse(
        RiskLimits.NO_LIMITS, List.of("bob,500,100000,3,1000,50,Y"), List.of("BOBS,400,120000,5,800,40"),
        Map.of("AAPL", 1_500_000L));
    @TempDir(factory = MemoryTempDirFactory.class)
    private Path journalDir;

    @FuzzTest(maxDuration = "10m")
    void shouldAnswerEveryRequestAsOuchRequiresWhenPayloadsAreArbitrary(final byte[] input) throws IOException
    {
        try (World world = new World())
        {
            final ByteBuffer steps = ByteBuffer.wrap(input);
            while (steps.hasRemaining())
            {
                final int control = steps.get() & 0xFF;
                final UserSession sender = 0 == (control & 1) ? world.alice : world.bob;
                switch ((control >>> 1) % ACTIONS)
                {
                    case 0 -> world.request(sender, payload(steps));
                    case 1 -> world.answer();
                    case 2 -> world.reject(steps.hasRemaining() ? steps.get() : Ouch42.REJECT_OTHER);
                    case 3 -> world.execute(steps.hasRemaining() ? steps.get() & 0xFF : 0);
                    default ->
                    {
                        if (0 != (control & RESTART))
                        {
                            world.restart();
                        }
                        else if (0 != (control & CROSS))
                        {
                            world.cross(steps);
                        }
                        else
                        {
                            world.engine.available = !world.engine.available;
                        }
                    }
                }
                world.checkOpenOrders();
                world.tick();
            }
        }
    }

    private static byte[] payload(final ByteBuffer steps)
    {
        final int length = steps.hasRemaining() ? Math.min(steps.get() & 0xFF, steps.remaining()) : 0;
        final byte[] payload = new byte[length];
        steps.get(payload);
        return payload;
    }

    private static byte[] gatewayRejectReasons()
    {
        final byte[] reasons = new byte[RejectCause.values().length];
        for (final RejectCause cause : RejectCause.values())
        {
            reasons[cause.ordinal()] = cause.reason();
        }
        return reasons;
    }

    /**
     * An order the engine has: resting on its book, or in the cross book (a closing-cross order, whose full cancel may
     * be pending until the cross).
     */
    private record Resting(
        long orderId, String symbol, boolean buy, long quantity, long price, boolean cross, boolean cancelPending)
    {
        Resting withQuantity(final long newQuantity)
        {
            return new Resting(orderId, symbol, buy, newQuantity, price, cross, cancelPending);
        }
    }

    /** One input's order entry, its two users, and the engine's side of the conversation. */
    private final class World implements AutoCloseable
    {
        final RecordingEngineProxy engine = new RecordingEngineProxy();
        final DutyCycleClock clock = new DutyCycleClock(null);
        OrderEntry orderEntry;
        OrderEntryAdapter adapter;
        EngineEvents events;
        /** Session indexes 1, 3, 5... from one restart to the next. */
        UserSession alice;
        /** Session indexes 2, 4, 6... */
        UserSession bob;
        /** The day's last trades, kept across restarts as the gateway's are. */
        private CollarReferences collarReferences;
        private int restarts;
        /** Commands handed over and not answered yet, oldest first. */
        private final ArrayDeque<Object> unanswered = new ArrayDeque<>();
        private final Map<Long, Resting> book = new LinkedHashMap<>();
        private final Map<Long, String> tokens = new HashMap<>();
        /**
         * Every Order Token each user's session took today, by username, as the rules of OUCH 4.2 and the gateway
         * (README, "Enter Order checks") consume them: kept apart from the gateway's token index, which the checks
         * ask what a request will find only through this, and across restarts.
         */
        private final Map<String, Set<String>> usedTokens = new HashMap<>();
        private final Set<Long> sentIds = new HashSet<>();
        /**
         * Orders with a client's cancel the engine could not take when it came, not sent since: the gateway keeps it
         * until the engine can take it, and sends it before the client's next cancel or replace of the order, or at
         * a retry; a superset of the gateway's, which drops those the order no longer needs.
         */
        private final Set<Long> keptCancels = new HashSet<>();
        private int commandsSeen;
        private long nextOrderId;
        private long nextMatchNumber;
        private boolean crossLocked;
        private long nowNs = 1_000_000_000L;
        private long midnightNs = T0;

        World() throws IOException
        {
            clock.set(nowNs, midnightNs);
            start(null);
        }

        /**
         * The gateway stops (its journals flushed, as each duty cycle ends, and closed) and starts again on them; the
         * engine's stream is heard again from its last event, which must change nothing.
         */
        void restart() throws IOException
        {
            final long openOrders = orderEntry.openOrderCount();
            alice.flush(0);
            bob.flush(0);
            CloseHelper.closeAll(alice.journal(), bob.journal(), collarReferences);
            restarts++;
            keptCancels.clear(); // a stopping gateway forgets them (README)
            final EngineEvents before = events;
            start(before);
            assertThat(orderEntry.openOrderCount()).as("open orders rebuilt").isEqualTo(openOrders);
            assertThat(alice.tokens().size()).as("alice's tokens rebuilt").isEqualTo(usedTokens(alice).size());
            assertThat(bob.tokens().size()).as("bob's tokens rebuilt").isEqualTo(usedTokens(bob).size());

            final long aliceCount = alice.journal().count();
            final long bobCount = bob.journal().count();
            if (before.redeliverLast(EngineEvents.adapter(orderEntry, metrics)))
            {
                assertThat(alice.journal().count()).as("messages for an event heard again").isEqualTo(aliceCount);
                assertThat(bob.journal().count()).as("messages for an event heard again").isEqualTo(bobCount);
                assertThat(orderEntry.openOrderCount()).as("open orders after an event heard again")
                    .isEqualTo(openOrders);
            }
        }

        private void start(final EngineEvents earlier) throws IOException
        {
            collarReferences = CollarReferences.open(journalDir, symbols);
            orderEntry = new OrderEntry(
                GATEWAY_ID, MAX_ORDER_SHARES, GatewayContext.MAX_SESSION_TOKENS_DEFAULT,
                GatewayContext.MAX_DAY_TOKENS_DEFAULT, symbols, limits, collarReferences, engine,
                new OuchProxy(metrics), metrics, clock, new SessionIndexes(2 * restarts + 2), MEDIA_DRIVER_START_MS);
            adapter = new OrderEntryAdapter(orderEntry, metrics);
            final EngineEventAdapter eventAdapter = EngineEvents.adapter(orderEntry, metrics);
            events = null == earlier ? new EngineEvents(eventAdapter) : new EngineEvents(eventAdapter, earlier);
            alice = new UserSession("alice", OrderEntryTest.firm("DEMO"), GATEWAY_ID, 2 * restarts + 1, 2,
                SessionJournal.open(journalDir.resolve("alice.journal"), JournalSync.NONE), metrics);
            bob = new UserSession("bob", OrderEntryTest.firm("BOBS"), GATEWAY_ID, 2 * restarts + 2, 2,
                SessionJournal.open(journalDir.resolve("bob.journal"), JournalSync.NONE), metrics);
            final OrderRebuild rebuild = new OrderRebuild(orderEntry, symbols.shardCount());
            rebuild.rebuild(alice);
            rebuild.rebuild(bob);
        }

        /** The clock advances; the gateway's duty cycle sends its kept cancels again, every 100 ms. */
        void tick()
        {
            nowNs += 1_000_000L;
            midnightNs += 1_000L;
            clock.set(nowNs, midnightNs);
            orderEntry.retryCancels();
            final Set<Long> resent = new HashSet<>();
            for (final Object command : newCommands())
            {
                assertThat(command).isInstanceOfSatisfying(Cancel.class, (cancel) -> assertThat(keptCancels)
                    .as("a retry sends kept cancels only, each until the engine takes it")
                    .contains(cancel.clientOrderId()));
                final long clientOrderId = ((Cancel)command).clientOrderId();
                resent.add(clientOrderId);
                handedOver(command, clientOrderId, null);
            }
            keptCancels.removeAll(resent);
        }

        /** One SoupBinTCP Unsequenced Data payload from a logged-in user, as nassau hands it over. */
        void request(final UserSession sender, final byte[] payload) throws IOException
        {
            final UserSession other = sender == alice ? bob : alice;
            final long sent = sender.journal().count();
            final long sentToOther = other.journal().count();
            final double unknownBefore = metrics.unknownIn.get();
            final ByteBuffer direct = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
            final boolean replace = ReplaceOrder.LENGTH == payload.length && ReplaceOrder.TYPE == payload[0];
            final Target target = target(sender, payload);
            final boolean replacementTokenUsed =
                replace && isUsed(sender, payload, ReplaceOrder.REPLACEMENT_ORDER_TOKEN_OFFSET);
            final boolean enterTokenUsed = EnterOrder.LENGTH == payload.length && EnterOrder.TYPE == payload[0] &&
                isUsed(sender, payload, EnterOrder.ORDER_TOKEN_OFFSET);

            final int outcome = adapter.onMessage(sender, direct);

            final List<Object> commands = newCommands();
            final List<Object> messages = messagesSince(sender, sent);
            assertThat(other.journal().count()).as("messages to the other session").isEqualTo(sentToOther);
            final int expectedLength = 0 == payload.length ? -1 : switch (payload[0])
            {
                case EnterOrder.TYPE -> EnterOrder.LENGTH;
                case ReplaceOrder.TYPE -> ReplaceOrder.LENGTH;
                case CancelOrder.TYPE -> CancelOrder.LENGTH;
                case ModifyOrder.TYPE -> ModifyOrder.LENGTH;
                default -> -1;
            };
            if (expectedLength < 0 || expectedLength != payload.length)
            {
                assertThat(outcome).isEqualTo(payload.length > 0 && expectedLength < 0 ?
                    OrderEntryAdapter.UNKNOWN_TYPE : OrderEntryAdapter.WRONG_LENGTH);
                assertThat(metrics.unknownIn.get() - unknownBefore).isEqualTo(expectedLength < 0 ? 1 : 0);
                assertThat(commands).isEmpty();
                assertThat(messages).isEmpty();
                return;
            }
            assertThat(outcome).isEqualTo(OrderEntryAdapter.OK);
            final UnsafeBuffer buffer = new UnsafeBuffer(payload);
            switch (payload[0])
            {
                case EnterOrder.TYPE ->
                    checkEnter(sender, new EnterOrder().wrap(buffer, 0), enterTokenUsed, commands, messages);
                case ReplaceOrder.TYPE -> checkReplace(sender, new ReplaceOrder().wrap(buffer, 0), target,
                    replacementTokenUsed, commands, messages);
                case CancelOrder.TYPE ->
                    checkCancel(sender, new CancelOrder().wrap(buffer, 0), target, commands, messages);
                default -> checkModify(sender, new ModifyOrder().wrap(buffer, 0), target, commands, messages);
            }
        }

        private void checkEnter(
            final UserSession sender,
            final EnterOrder request,
            final boolean tokenUsed,
            final List<Object> commands,
            final List<Object> messages)
        {
            final String token = request.orderTokenAsString();
            if (tokenUsed)
            {
                assertThat(commands).as("a resent Enter Order's command").isEmpty();
                assertThat(messages).as("a resent Enter Order's answer").isEmpty();
                return;
            }
            takeIfValid(sender, request.buffer(), request.offset() + EnterOrder.ORDER_TOKEN_OFFSET);
            assertThat(commands).hasSizeLessThanOrEqualTo(1);
            if (commands.isEmpty())
            {
                assertThat(messages).hasSize(1);
                checkRejected(messages.get(0), token);
                return;
            }
            final NewOrder command = (NewOrder)commands.get(0);
            checkCrossFields(command);
            final SymbolDirectory.Entry symbol = symbols.find(request.stock());
            assertThat(symbol).as("New Order for a symbol traded here").isNotNull();
            assertThat(OrderValidation.isBlankFirm(request.firm()) || request.firm() == sender.firm())
                .as("the Firm blank or the user's own").isTrue();
            final int firm = sender.firm();
            assertThat(command).isEqualTo(new NewOrder(symbol.shardId(), command.timestampNs(), command.clientOrderId(),
                Symbols.toString(request.stock()), Ouch42.SIDE_BUY == request.buySellIndicator(), request.shares(),
                request.price(), request.timeInForce(), request.minimumQuantity(), RecordingEngineProxy.firm(firm),
                (char)request.display(), (char)request.crossType()));
            assertThat(OrderValidation.isSide(request.buySellIndicator())).as("side").isTrue();
            assertThat(command.quantity()).as("shares").isBetween(1L, MAX_ORDER_SHARES);
            assertThat(command.price()).as("price").isBetween(1L, Ouch42.MAX_PRICE);
            assertThat(command.timeInForce()).as("time in force").isLessThanOrEqualTo(
                Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
            checkOwnId(sender, command.clientOrderId());
            if (engine.available)
            {
                assertThat(messages).as("an order handed to the engine gets its answer from the engine").isEmpty();
                handedOver(command, command.clientOrderId(), token);
            }
            else
            {
                assertThat(messages).isEqualTo(List.of(new Rejected(midnightNs, token, (char)Ouch42.REJECT_HALTED)));
            }
        }

        /** A New Order is a continuous one, or a closing-cross one with the fields the engine takes for it. */
        private void checkCrossFields(final NewOrder command)
        {
            assertThat(command.crossType()).as("cross type").isIn('N', 'C');
            if ('C' == command.crossType())
            {
                assertThat(command.timeInForce()).as("closing-cross time in force")
                    .isIn((long)Ouch42.TIME_IN_FORCE_MARKET_HOURS, (long)Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
                assertThat(command.display()).as("closing-cross display").isIn('A', 'Y');
                assertThat(command.minimumQuantity()).as("closing-cross minimum quantity").isZero();
            }
        }

        /**
         * @param replaced             the open order the existing token named before the request, or null.
         * @param replacementTokenUsed whether the replacement token was used before the request.
         */
        private void checkReplace(
            final UserSession sender, final ReplaceOrder request, final Target replaced,
            final boolean replacementTokenUsed, final List<Object> commands, final List<Object> messages)
        {
            final String token = request.replacementOrderTokenAsString();
            final boolean tokenUsedNow = TokenIndex.MISSING !=
                sender.tokens().get(request.buffer(), request.offset() + ReplaceOrder.REPLACEMENT_ORDER_TOKEN_OFFSET);
            if (null == replaced || replacementTokenUsed)
            {
                assertThat(commands).as("a replace OUCH 4.2 ignores").isEmpty();
                assertThat(messages).as("a replace OUCH 4.2 ignores").isEmpty();
                return;
            }
            final int tokenOffset = request.offset() + ReplaceOrder.REPLACEMENT_ORDER_TOKEN_OFFSET;
            final List<Object> own = ownCommand(replaced, commands);
            if (own.isEmpty() && messages.isEmpty())
            {
                // A cancel for a replacement of 0 shares or one refused, kept behind the order's kept ones.
                assertThat(isStillKept(replaced)).as("a replace with no command and no answer").isTrue();
                checkRefusedReplaceToken(sender, request, replaced, tokenUsedNow);
            }
            else if (own.isEmpty())
            {
                assertThat(messages).hasSize(1);
                checkRejected(messages.get(0), token);
                if (Ouch42.CROSS_TYPE_CLOSING != replaced.crossType())
                {
                    assertThat(isStillKept(replaced)).as("a refused replace kept its order: a closing-cross one, " +
                        "or one whose kept cancels the engine cannot take").isTrue();
                    assertThat(messages.get(0)).isEqualTo(new Rejected(midnightNs, token, (char)Ouch42.REJECT_HALTED));
                }
                takeIfValid(sender, request.buffer(), tokenOffset); // consumed, as an Enter Order's (OUCH 4.2 §2.2)
            }
            else if (own.get(0) instanceof Cancel cancel)
            {
                assertThat(cancel.quantity()).isZero();
                assertThat(cancel.clientOrderId()).isEqualTo(replaced.clientOrderId());
                assertThat(messages).isEmpty();
                checkRefusedReplaceToken(sender, request, replaced, tokenUsedNow);
                handedOver(cancel, cancel.clientOrderId(), null);
            }
            else
            {
                assertThat(isValidToken(request.buffer(), tokenOffset)).as("a replacement token taken").isTrue();
                takeIfValid(sender, request.buffer(), tokenOffset);
                final Replace replace = (Replace)own.get(0);
                assertThat(replace.quantity()).isEqualTo(request.shares()).isBetween(1L, MAX_ORDER_SHARES);
                assertThat(replace.price()).isEqualTo(request.price()).isBetween(1L, Ouch42.MAX_PRICE);
                assertThat(replace.timeInForce()).as("time in force").isEqualTo(request.timeInForce())
                    .isLessThanOrEqualTo(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
                checkOwnId(sender, replace.clientOrderId());
                checkOwnId(sender, replace.newClientOrderId());
                assertThat(tokenUsedNow).as("the replacement token is used").isTrue();
                assertThat(tokens.get(replace.clientOrderId())).as("the replaced order's token")
                    .isEqualTo(request.existingOrderTokenAsString());
                if (engine.available)
                {
                    assertThat(messages).isEmpty();
                    handedOver(replace, replace.newClientOrderId(), token);
                }
                else
                {
                    assertThat(messages).isEqualTo(
                        List.of(new Rejected(midnightNs, token, (char)Ouch42.REJECT_HALTED)));
                }
            }
        }

        /**
         * A Replace Order answered with a cancel of its order (sent or kept): a replacement of 0 shares, its token used
         * all the same, or one the gateway refuses, its token not consumed (a closing-cross order's is Rejected).
         */
        private void checkRefusedReplaceToken(
            final UserSession sender, final ReplaceOrder request, final Target replaced, final boolean tokenUsedNow)
        {
            if (0 != request.shares())
            {
                assertThat(replaced.crossType()).as("a closing-cross order's refused replace is Rejected")
                    .isNotEqualTo(Ouch42.CROSS_TYPE_CLOSING);
                assertThat(tokenUsedNow).as("a refused replace's token is not consumed").isFalse();
            }
            else
            {
                takeIfValid(sender, request.buffer(), request.offset() + ReplaceOrder.REPLACEMENT_ORDER_TOKEN_OFFSET);
            }
        }

        /**
         * @return the open order a Replace, Cancel or Modify Order's (existing) token names in the session, or null
         *         for another payload or none.
         */
        private Target target(final UserSession sender, final byte[] payload)
        {
            final int tokenOffset = 0 == payload.length ? -1 : switch (payload[0])
            {
                case ReplaceOrder.TYPE -> ReplaceOrder.LENGTH == payload.length ?
                    ReplaceOrder.EXISTING_ORDER_TOKEN_OFFSET : -1;
                case CancelOrder.TYPE -> CancelOrder.LENGTH == payload.length ? CancelOrder.ORDER_TOKEN_OFFSET : -1;
                case ModifyOrder.TYPE -> ModifyOrder.LENGTH == payload.length ? ModifyOrder.ORDER_TOKEN_OFFSET : -1;
                default -> -1;
            };
            if (tokenOffset < 0)
            {
                return null;
            }
            final long clientOrderId = sender.tokens().get(new UnsafeBuffer(payload), tokenOffset);
            final OrderState order = TokenIndex.USED == clientOrderId ? null : orderEntry.order(clientOrderId);
            return null == order ? null :
                new Target(order.clientOrderId, order.crossType, keptCancels.contains(order.clientOrderId));
        }

        /**
         * Splits the commands of a request naming an open order: the order's kept cancels the gateway sends first, so
         * that the engine takes the client's requests in order, then the request's own command, if any. Kept ones
         * go only with an own command (the shard took them, so it takes the next); the engine cannot take them, no
         * command is offered at all and a cancel of the request is kept behind them. Hands the kept ones over and
         * records the order's cancels as kept, or not, after the request.
         *
         * @return the request's own command, or none.
         */
        private List<Object> ownCommand(final Target target, final List<Object> commands)
        {
            if (commands.size() > 1)
            {
                assertThat(target.cancelKept()).as("commands before a request's own: its order's kept cancels")
                    .isTrue();
                for (final Object kept : commands.subList(0, commands.size() - 1))
                {
                    assertThat(kept).isInstanceOfSatisfying(Cancel.class,
                        (cancel) -> assertThat(cancel.clientOrderId()).isEqualTo(target.clientOrderId()));
                    handedOver(kept, target.clientOrderId(), null);
                }
            }
            final List<Object> own = commands.isEmpty() ? commands : commands.subList(commands.size() - 1,
                commands.size());
            if (own.isEmpty())
            {
                return own;
            }
            assertThat(engine.available || commands.size() == 1).as("nothing sent before a command not taken")
                .isTrue();
            if (engine.available)
            {
                keptCancels.remove(target.clientOrderId());
            }
            else if (own.get(0) instanceof Cancel)
            {
                keptCancels.add(target.clientOrderId());
            }
            return own;
        }

        /** @return whether the order's kept cancels stay kept through a request: the engine cannot take them. */
        private boolean isStillKept(final Target target)
        {
            return target.cancelKept() && !engine.available;
        }

        private void checkCancel(
            final UserSession sender, final CancelOrder request, final Target target, final List<Object> commands,
            final List<Object> messages)
        {
            assertThat(messages).as("Cancel Order is answered by the engine's Canceled only").isEmpty();
            if (null == target)
            {
                assertThat(commands).as("a cancel of no open order").isEmpty();
                return;
            }
            final List<Object> own = ownCommand(target, commands);
            if (own.isEmpty())
            {
                assertThat(isStillKept(target)).as("a cancel of an open order sent, or kept behind kept ones").isTrue();
                return;
            }
            final Cancel cancel = (Cancel)own.get(0);
            assertThat(cancel.quantity()).isEqualTo(request.shares());
            checkOwnId(sender, cancel.clientOrderId());
            assertThat(tokens.get(cancel.clientOrderId())).isEqualTo(request.orderTokenAsString());
            handedOver(cancel, cancel.clientOrderId(), null);
        }

        private void checkModify(
            final UserSession sender, final ModifyOrder request, final Target target, final List<Object> commands,
            final List<Object> messages)
        {
            final String token = request.orderTokenAsString();
            final List<Object> own = null == target ? commands : ownCommand(target, commands);
            assertThat(own).hasSizeLessThanOrEqualTo(1);
            if (!own.isEmpty())
            {
                final Cancel cancel = (Cancel)own.get(0);
                assertThat(cancel.quantity()).as("a modify lowers the size").isEqualTo(request.shares());
                checkOwnId(sender, cancel.clientOrderId());
                assertThat(tokens.get(cancel.clientOrderId())).isEqualTo(token);
                handedOver(cancel, cancel.clientOrderId(), null);
            }
            for (final Object message : messages)
            {
                assertThat(message).isInstanceOfSatisfying(Modified.class,
                    (modified) -> assertThat(modified.token()).isEqualTo(token));
            }
        }

        /**
         * @return whether the token at an offset of a request's payload is one the sender's session took today, by the
         * oracle's own record; the gateway's index must agree.
         */
        private boolean isUsed(final UserSession sender, final byte[] payload, final int tokenOffset)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(payload);
            final boolean used = isValidToken(buffer, tokenOffset) &&
                usedTokens(sender).contains(buffer.getStringWithoutLengthAscii(tokenOffset, Ouch42.TOKEN_LENGTH));
            assertThat(TokenIndex.MISSING != sender.tokens().get(buffer, tokenOffset))
                .as("the gateway's index knows the token as used").isEqualTo(used);
            return used;
        }

        /**
         * Records a new token of a request the gateway consumes it for: every one with a valid token (printable ASCII,
         * not all spaces), the day's token capacity being far beyond any input's.
         */
        private void takeIfValid(final UserSession sender, final DirectBuffer buffer, final int tokenOffset)
        {
            if (isValidToken(buffer, tokenOffset))
            {
                usedTokens(sender).add(buffer.getStringWithoutLengthAscii(tokenOffset, Ouch42.TOKEN_LENGTH));
            }
        }

        private static boolean isValidToken(final DirectBuffer buffer, final int tokenOffset)
        {
            final String token = buffer.getStringWithoutLengthAscii(tokenOffset, Ouch42.TOKEN_LENGTH);
            return token.chars().allMatch((c) -> c >= 0x20 && c <= 0x7E) && !token.isBlank();
        }

        private Set<String> usedTokens(final UserSession sender)
        {
            return usedTokens.computeIfAbsent(sender.username(), (username) -> new HashSet<>());
        }

        private void checkRejected(final Object message, final String token)
        {
            assertThat(message).isInstanceOfSatisfying(Rejected.class, (rejected) ->
            {
                assertThat(rejected.token()).isEqualTo(token);
                assertThat(GATEWAY_REJECT_REASONS).contains((byte)rejected.reason());
            });
        }

        private void checkOwnId(final UserSession sender, final long clientOrderId)
        {
            assertThat(clientOrderId >>> 56).as("gateway id").isEqualTo(GATEWAY_ID);
            assertThat(session(clientOrderId)).as("session of " + clientOrderId).isSameAs(sender);
        }

        private void handedOver(final Object command, final long clientOrderId, final String token)
        {
            if (engine.available)
            {
                unanswered.add(command);
                if (null != token)
                {
                    tokens.put(clientOrderId, token);
                }
            }
        }

        /** The engine answers its oldest unanswered command as an engine with no other orders would. */
        void answer()
        {
            final Object command = unanswered.poll();
            if (command instanceof NewOrder order)
            {
                answerNewOrder(order);
            }
            else if (command instanceof Replace replace)
            {
                answerReplace(replace);
            }
            else if (command instanceof Cancel cancel)
            {
                answerCancel(cancel);
            }
        }

        private void answerNewOrder(final NewOrder order)
        {
            final boolean cross = 'C' == order.crossType();
            if (cross && crossLocked)
            {
                rejectWith(order.clientOrderId(), order.symbol(), Ouch42.REJECT_OUTSIDE_PERMITTED_TIMES);
                return;
            }
            final long orderId = ++nextOrderId;
            final List<Object> accepted = deliver(order.clientOrderId(), () -> events.accepted(midnightNs,
                order.clientOrderId(), orderId, order.symbol(), side(order.buy()), order.quantity(), order.price(),
                order.timeInForce(), order.display()));
            assertThat(accepted).isNotEmpty().first().isInstanceOfSatisfying(Accepted.class, (message) ->
            {
                assertThat(message.token()).isEqualTo(tokens.get(order.clientOrderId()));
                assertThat(message.crossType()).isEqualTo(order.crossType());
            });
            checkModifiedAfterFirst(accepted, tokens.get(order.clientOrderId()));
            if (Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == order.timeInForce())
            {
                checkCanceled(order.clientOrderId(), deliver(order.clientOrderId(), () -> events.canceled(
                    midnightNs, order.clientOrderId(), orderId, order.symbol(), order.quantity(), 0,
                    Ouch42.CANCEL_IMMEDIATE_OR_CANCEL, false)));
            }
            else
            {
                book.put(order.clientOrderId(), new Resting(
                    orderId, order.symbol(), order.buy(), order.quantity(), order.price(), cross, false));
            }
        }

        private void answerReplace(final Replace replace)
        {
            final Resting resting = book.get(replace.clientOrderId());
            if (null == resting || (resting.cross() && crossLocked))
            {
                rejectWith(replace.newClientOrderId(), "AAPL",
                    null == resting ? Ouch42.REJECT_OTHER : Ouch42.REJECT_OUTSIDE_PERMITTED_TIMES);
                return;
            }
            book.remove(replace.clientOrderId());
            final long newOrderId = ++nextOrderId;
            final List<Object> replaced = deliver(replace.newClientOrderId(), () -> events.replaced(midnightNs,
                replace.clientOrderId(), replace.newClientOrderId(), resting.orderId(), newOrderId,
                resting.symbol(), side(resting.buy()), replace.quantity(), replace.price()));
            assertThat(replaced).isNotEmpty().first().isInstanceOfSatisfying(Replaced.class, (message) ->
            {
                assertThat(message.token()).isEqualTo(tokens.get(replace.newClientOrderId()));
                assertThat(message.crossType()).isEqualTo(resting.cross() ? 'C' : 'N');
            });
            checkModifiedAfterFirst(replaced, tokens.get(replace.newClientOrderId()));
            if (Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == replace.timeInForce())
            {
                checkCanceled(replace.newClientOrderId(), deliver(replace.newClientOrderId(), () -> events.canceled(
                    midnightNs, replace.newClientOrderId(), newOrderId, resting.symbol(), replace.quantity(), 0,
                    Ouch42.CANCEL_IMMEDIATE_OR_CANCEL, false)));
            }
            else
            {
                book.put(replace.newClientOrderId(), new Resting(newOrderId, resting.symbol(), resting.buy(),
                    replace.quantity(), replace.price(), resting.cross(), false));
            }
        }

        private void answerCancel(final Cancel cancel)
        {
            final long clientOrderId = cancel.clientOrderId();
            final Resting resting = book.get(clientOrderId);
            if (null == resting || resting.quantity() <= cancel.quantity())
            {
                return;
            }
            if (resting.cross() && crossLocked)
            {
                final String token = tokens.get(clientOrderId);
                if (0 == cancel.quantity())
                {
                    book.put(clientOrderId, new Resting(resting.orderId(), resting.symbol(), resting.buy(),
                        resting.quantity(), resting.price(), true, true));
                    checkFirstThenModified(deliver(clientOrderId, () -> events.cancelPending(
                        midnightNs, clientOrderId, resting.orderId(), resting.symbol())),
                        new CancelPendingMessage(midnightNs, token), token);
                }
                else
                {
                    checkFirstThenModified(deliver(clientOrderId, () -> events.cancelRejected(
                        midnightNs, clientOrderId, resting.orderId(), resting.symbol())),
                        new CancelRejectMessage(midnightNs, token), token);
                }
                return;
            }
            reduce(clientOrderId, resting, resting.quantity() - cancel.quantity());
            checkCanceled(clientOrderId, deliver(clientOrderId, () -> events.canceled(midnightNs, clientOrderId,
                resting.orderId(), resting.symbol(), resting.quantity() - cancel.quantity(), cancel.quantity(),
                Ouch42.CANCEL_USER_REQUESTED, !resting.cross())));
        }

        /**
         * Locks the closing cross, or runs it when locked: every closing-cross order, oldest first, executes up to the
         * next byte's shares against another gateway's order, and what is left of it is canceled.
         */
        void cross(final ByteBuffer steps)
        {
            if (!crossLocked)
            {
                crossLocked = true;
                return;
            }
            final int size = steps.hasRemaining() ? steps.get() & 0xFF : 0;
            for (final Map.Entry<Long, Resting> entry : List.copyOf(book.entrySet()))
            {
                if (entry.getValue().cross())
                {
                    crossOut(entry.getKey(), entry.getValue(), Math.min(size, entry.getValue().quantity()));
                }
            }
            final long aliceCount = alice.journal().count();
            final long bobCount = bob.journal().count();
            for (final SymbolDirectory.Entry symbol : symbols.entries())
            {
                // Price, shares and match number are market data: the gateway reads none of them.
                events.crossCompleted(midnightNs, symbol.symbol(), 0, 0, 0);
            }
            assertThat(alice.journal().count()).as("messages for CrossCompleted").isEqualTo(aliceCount);
            assertThat(bob.journal().count()).as("messages for CrossCompleted").isEqualTo(bobCount);
            assertThat(newCommands()).as("commands on an engine event").isEmpty();
            crossLocked = false;
        }

        /** A closing-cross order executes in the cross (the buy as taker, the sell as maker), then is canceled. */
        private void crossOut(final long clientOrderId, final Resting order, final long quantity)
        {
            final String token = tokens.get(clientOrderId);
            final long leaves = order.quantity() - quantity;
            if (quantity > 0)
            {
                final long matchNumber = ++nextMatchNumber;
                final long other = ((long)OTHER_GATEWAY_ID << 56) | matchNumber;
                final long otherOrderId = ++nextOrderId;
                final List<Object> messages = deliver(clientOrderId, () ->
                {
                    if (order.buy())
                    {
                        events.executed(midnightNs, matchNumber, order.symbol(), quantity, order.price(),
                            clientOrderId, order.orderId(), Side.BUY, other, otherOrderId, 0, leaves, 'C');
                    }
                    else
                    {
                        events.executed(midnightNs, matchNumber, order.symbol(), quantity, order.price(), other,
                            otherOrderId, Side.BUY, clientOrderId, order.orderId(), leaves, 0, 'C');
                    }
                });
                checkFirstThenModified(messages, new Executed(midnightNs, token, quantity, order.price(),
                    (char)Ouch42.LIQUIDITY_CLOSING_CROSS, matchNumber), token);
            }
            book.remove(clientOrderId);
            if (leaves > 0)
            {
                checkCanceled(clientOrderId, deliver(clientOrderId, () -> events.canceled(midnightNs, clientOrderId,
                    order.orderId(), order.symbol(), leaves, 0,
                    order.cancelPending() ? Ouch42.CANCEL_USER_REQUESTED : Ouch42.CANCEL_CROSS, false)));
            }
        }

        /** The engine rejects its oldest unanswered New Order or Replace. */
        void reject(final byte reason)
        {
            for (final Iterator<Object> commands = unanswered.iterator(); commands.hasNext(); )
            {
                final Object command = commands.next();
                if (command instanceof NewOrder order)
                {
                    commands.remove();
                    rejectWith(order.clientOrderId(), order.symbol(), reason);
                    return;
                }
                if (command instanceof Replace replace)
                {
                    commands.remove();
                    rejectWith(replace.newClientOrderId(), "AAPL", reason);
                    return;
                }
            }
        }

        /** The oldest resting order of the continuous book trades with an order of another gateway. */
        void execute(final int size)
        {
            final Map.Entry<Long, Resting> maker = book.entrySet().stream()
                .filter((entry) -> !entry.getValue().cross()).findFirst().orElse(null);
            if (null == maker)
            {
                return;
            }
            final Resting resting = maker.getValue();
            final long quantity = Math.min(resting.quantity(), 1 + size);
            final long matchNumber = ++nextMatchNumber;
            reduce(maker.getKey(), resting, quantity);
            final List<Object> messages = deliver(maker.getKey(), () -> events.executed(midnightNs, matchNumber,
                resting.symbol(), quantity, resting.price(), ((long)OTHER_GATEWAY_ID << 56) | matchNumber,
                ++nextOrderId, side(!resting.buy()), maker.getKey(), resting.orderId(), resting.quantity() - quantity,
                0));
            final String token = tokens.get(maker.getKey());
            checkFirstThenModified(messages, new Executed(midnightNs, token, quantity, resting.price(),
                (char)Ouch42.LIQUIDITY_ADDED, matchNumber), token);
        }

        /** Every order the gateway tracks is one the engine has, or one it has yet to answer. */
        void checkOpenOrders()
        {
            long expected = book.size();
            for (final Object command : unanswered)
            {
                expected += command instanceof Cancel ? 0 : 1;
            }
            assertThat(orderEntry.openOrderCount()).as("open orders").isEqualTo(expected);
        }

        private void rejectWith(final long clientOrderId, final String symbol, final byte reason)
        {
            assertThat(deliver(clientOrderId, () -> events.rejected(midnightNs, clientOrderId, symbol, reason)))
                .isEqualTo(List.of(new Rejected(midnightNs, tokens.get(clientOrderId), (char)reason)));
        }

        private void checkCanceled(final long clientOrderId, final List<Object> messages)
        {
            assertThat(messages).isNotEmpty();
            assertThat(messages.get(0)).isInstanceOfAny(Canceled.class, Modified.class);
            assertThat(messages).extracting((message) -> message instanceof Canceled canceled ? canceled.token() :
                ((Modified)message).token()).containsOnly(tokens.get(clientOrderId));
            assertThat(messages.subList(1, messages.size())).allMatch(Modified.class::isInstance);
        }

        /** The engine's event is answered with the one message first, then only Order Modified for the token. */
        private void checkFirstThenModified(final List<Object> messages, final Object first, final String token)
        {
            assertThat(messages).isNotEmpty().first().isEqualTo(first);
            checkModifiedAfterFirst(messages, token);
        }

        /** After the first message only Order Modified for the token: Modify Orders its size already meets. */
        private static void checkModifiedAfterFirst(final List<Object> messages, final String token)
        {
            assertThat(messages.subList(1, messages.size())).allSatisfy((message) -> assertThat(message)
                .isInstanceOfSatisfying(Modified.class, (modified) -> assertThat(modified.token()).isEqualTo(token)));
        }

        private void reduce(final long clientOrderId, final Resting resting, final long by)
        {
            if (resting.quantity() == by)
            {
                book.remove(clientOrderId);
            }
            else
            {
                book.put(clientOrderId, resting.withQuantity(resting.quantity() - by));
            }
        }

        /** Delivers an engine event and returns the messages it made for the order's session, checking the other. */
        private List<Object> deliver(final long clientOrderId, final Runnable event)
        {
            final UserSession owner = session(clientOrderId);
            final UserSession other = owner == alice ? bob : alice;
            final long sent = owner.journal().count();
            final long sentToOther = other.journal().count();
            event.run();
            assertThat(other.journal().count()).as("messages to the other session").isEqualTo(sentToOther);
            assertThat(newCommands()).as("commands on an engine event").isEmpty();
            try
            {
                return messagesSince(owner, sent);
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
        }

        private UserSession session(final long clientOrderId)
        {
            final long sessionIndex = (clientOrderId >>> 32) & 0xFF_FFFF;
            return 0 == sessionIndex ? null : 1 == (sessionIndex & 1) ? alice : bob;
        }

        /** @return the commands since the last call; each new order's clientOrderId never sent before, restarts too. */
        private List<Object> newCommands()
        {
            final List<Object> all = engine.commands();
            final List<Object> added = all.subList(commandsSeen, all.size());
            commandsSeen = all.size();
            for (final Object command : added)
            {
                final long newId = command instanceof NewOrder order ? order.clientOrderId() :
                    command instanceof Replace replace ? replace.newClientOrderId() : 0;
                assertThat(0 == newId || sentIds.add(newId)).as("clientOrderId %d sent before", newId).isTrue();
            }
            return added;
        }

        private static List<Object> messagesSince(final UserSession session, final long count) throws IOException
        {
            final SessionJournal journal = session.journal();
            final List<Object> messages = new ArrayList<>();
            for (long sequenceNumber = count + 1; sequenceNumber <= journal.count(); sequenceNumber++)
            {
                final ByteBuffer message = journal.message(sequenceNumber);
                final byte[] bytes = new byte[message.remaining()];
                message.get(bytes);
                messages.add(OuchMessages.decode(bytes));
            }
            return messages;
        }

        private static Side side(final boolean buy)
        {
            return buy ? Side.BUY : Side.SELL;
        }

        @Override
        public void close()
        {
            CloseHelper.closeAll(alice.journal(), bob.journal(), collarReferences);
            for (final String name : Arrays.asList("alice.journal", "bob.journal", CollarReferences.FILE_NAME))
            {
                IoUtil.deleteIfExists(journalDir.resolve(name).toFile());
            }
        }
    }
}
