package io.bourse.gateway;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.gateway.OuchMessages.Accepted;
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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the OUCH 4.2 decoding ({@link OrderEntryAdapter}) and the order logic ({@link OrderEntry}) with arbitrary
 * request payloads from two users, interleaved with the engine's answers, and checks after every step that each
 * request got exactly the answer OUCH 4.2 and the gateway's rules require, in its sender's session only.
 * <p>
 * Checked after a request: a payload of unknown type or of the wrong length for its type is counted and reported
 * (the caller ends the session) with nothing sent anywhere; an Enter Order yields either one engine New Order,
 * carrying the request's fields and only valid ones, or one Rejected for its token, never both and never neither (a
 * command the engine cannot take is the one case of both, answered Rejected 'H'); a Replace Order yields one engine
 * Replace for an open order of the session, or one Cancel of it to 0 shares, or one Rejected for the replacement
 * token; a Cancel Order yields at most an engine Cancel to its size and no message; a Modify Order at most an engine
 * Cancel and Order Modified messages for its token, never a Rejected. Checked after an engine event: Accepted,
 * Replaced and Rejected answer with exactly one message of their kind for the order's token; Canceled and Executed
 * with one Canceled (or Order Modified) or Executed, then only Order Modified messages. After every step the
 * gateway's count of open orders matches the engine's.
 * <p>
 * The engine records the commands ({@link RecordingEngineProxy}) and answers, when the input says so, with SBE events
 * through the real {@link EngineEventAdapter}, as a matching engine with an empty book would: New Order accepted (an
 * immediate-or-cancel one then canceled 'I'), Replace replaced when the order rests, Cancel canceled down to its size,
 * or a rejection with any reason; resting orders trade with another gateway's orders. So the order states the fuzzer
 * reaches are those a real engine leads to, at a few microseconds a step (the real engine sits behind Aeron).
 * <p>
 * The input is a sequence of steps, each a control byte c and its operands. The sender is alice (no limits) when bit 0
 * of c is 0, bob (pre-trade limits: 500 shares, $100,000, 3 open orders, 10% collar around $150.00 for AAPL, 50
 * orders/s) otherwise; {@code (c >>> 1) % 5} chooses: 0 a request, a length byte n then n payload bytes (fewer at the
 * end of the input); 1 the engine answers its oldest unanswered command; 2 the engine rejects its oldest unanswered
 * New Order or Replace with the reason in the next byte; 3 the oldest resting order trades 1 + the next byte shares (at
 * most its size); 4 the engine stops, or resumes, taking commands. The clock advances 1 ms a step.
 * <p>
 * Regression inputs are in {@code src/test/resources/io/bourse/gateway/OrderEntryFuzzTestInputs/}; a long run: see the
 * README, "Fuzzing the gateway".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderEntryFuzzTest
{
    private static final int GATEWAY_ID = 1;
    private static final int OTHER_GATEWAY_ID = 2;
    private static final long MAX_ORDER_SHARES = 1_000_000;
    private static final long T0 = 36_000_000_000_000L;
    private static final int ACTIONS = 5;
    private static final byte[] GATEWAY_REJECT_REASONS = gatewayRejectReasons();

    /** Shared by every input: the metrics are only read as differences. */
    private final GatewayMetrics metrics = new GatewayMetrics(new PrometheusRegistry());
    private final SymbolDirectory symbols = SymbolDirectory.parse("AAPL@0,MSFT@1");
    private final RiskLimits limits = RiskLimits.parse(
        RiskLimits.NO_LIMITS, List.of("bob,500,100000,3,1000,50,Y"), Map.of("AAPL", 1_500_000L));
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
                    default -> world.engine.available = !world.engine.available;
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

    /** An order the engine has: resting on its book. */
    private record Resting(long orderId, String symbol, boolean buy, long quantity, long price)
    {
    }

    /** One input's order entry, its two users, and the engine's side of the conversation. */
    private final class World implements AutoCloseable
    {
        final RecordingEngineProxy engine = new RecordingEngineProxy();
        final DutyCycleClock clock = new DutyCycleClock(null);
        final OrderEntry orderEntry = new OrderEntry(
            GATEWAY_ID, MAX_ORDER_SHARES, symbols, limits, engine, new OuchProxy(metrics), metrics, clock);
        final OrderEntryAdapter adapter = new OrderEntryAdapter(orderEntry, metrics);
        final EngineEvents events = new EngineEvents(new EngineEventAdapter(orderEntry, metrics));
        final UserSession alice;
        final UserSession bob;
        /** Commands handed over and not answered yet, oldest first. */
        private final ArrayDeque<Object> unanswered = new ArrayDeque<>();
        private final Map<Long, Resting> book = new LinkedHashMap<>();
        private final Map<Long, String> tokens = new HashMap<>();
        private int commandsSeen;
        private long nextOrderId;
        private long nextMatchNumber;
        private long nowNs = 1_000_000_000L;
        private long midnightNs = T0;

        World() throws IOException
        {
            clock.set(nowNs, midnightNs);
            alice = new UserSession("alice", OrderEntryTest.firm("DEMO"), GATEWAY_ID, 1,
                SessionJournal.open(journalDir.resolve("alice.journal"), JournalSync.NONE), metrics);
            bob = new UserSession("bob", OrderEntryTest.firm("BOBS"), GATEWAY_ID, 2,
                SessionJournal.open(journalDir.resolve("bob.journal"), JournalSync.NONE), metrics);
        }

        void tick()
        {
            nowNs += 1_000_000L;
            midnightNs += 1_000L;
            clock.set(nowNs, midnightNs);
        }

        /** One SoupBinTCP Unsequenced Data payload from a logged-in user, as nassau hands it over. */
        void request(final UserSession sender, final byte[] payload) throws IOException
        {
            final UserSession other = sender == alice ? bob : alice;
            final long sent = sender.journal().count();
            final long sentToOther = other.journal().count();
            final double unknownBefore = metrics.unknownIn.get();
            final ByteBuffer direct = ByteBuffer.allocateDirect(payload.length).put(payload).flip();

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
                case EnterOrder.TYPE -> checkEnter(sender, new EnterOrder().wrap(buffer, 0), commands, messages);
                case ReplaceOrder.TYPE -> checkReplace(sender, new ReplaceOrder().wrap(buffer, 0), commands, messages);
                case CancelOrder.TYPE -> checkCancel(sender, new CancelOrder().wrap(buffer, 0), commands, messages);
                default -> checkModify(sender, new ModifyOrder().wrap(buffer, 0), commands, messages);
            }
        }

        private void checkEnter(
            final UserSession sender,
            final EnterOrder request,
            final List<Object> commands,
            final List<Object> messages)
        {
            final String token = request.orderTokenAsString();
            assertThat(commands).hasSizeLessThanOrEqualTo(1);
            if (commands.isEmpty())
            {
                assertThat(messages).hasSize(1);
                checkRejected(messages.get(0), token);
                return;
            }
            final NewOrder command = (NewOrder)commands.get(0);
            final SymbolDirectory.Entry symbol = symbols.find(request.stock());
            assertThat(symbol).as("New Order for a symbol traded here").isNotNull();
            final int firm = OrderValidation.isBlankFirm(request.firm()) ? sender.firm() : request.firm();
            assertThat(command).isEqualTo(new NewOrder(symbol.shardId(), command.timestampNs(), command.clientOrderId(),
                Symbols.toString(request.stock()), Ouch42.SIDE_BUY == request.buySellIndicator(), request.shares(),
                request.price(), request.timeInForce(), request.minimumQuantity(), RecordingEngineProxy.firm(firm),
                (char)request.display()));
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

        private void checkReplace(
            final UserSession sender, final ReplaceOrder request, final List<Object> commands,
            final List<Object> messages)
        {
            final String token = request.replacementOrderTokenAsString();
            assertThat(commands).hasSizeLessThanOrEqualTo(1);
            if (commands.isEmpty())
            {
                assertThat(messages).hasSize(1);
                checkRejected(messages.get(0), token);
            }
            else if (commands.get(0) instanceof Cancel cancel)
            {
                assertThat(request.shares()).as("a replace sent as a cancel replaces with 0 shares").isZero();
                assertThat(cancel.quantity()).isZero();
                checkOwnId(sender, cancel.clientOrderId());
                assertThat(messages).isEmpty();
                handedOver(cancel, cancel.clientOrderId(), null);
            }
            else
            {
                final Replace replace = (Replace)commands.get(0);
                assertThat(replace.quantity()).isEqualTo(request.shares()).isBetween(1L, MAX_ORDER_SHARES);
                assertThat(replace.price()).isEqualTo(request.price()).isBetween(1L, Ouch42.MAX_PRICE);
                checkOwnId(sender, replace.clientOrderId());
                checkOwnId(sender, replace.newClientOrderId());
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

        private void checkCancel(
            final UserSession sender, final CancelOrder request, final List<Object> commands,
            final List<Object> messages)
        {
            assertThat(messages).as("Cancel Order is answered by the engine's Canceled only").isEmpty();
            assertThat(commands).hasSizeLessThanOrEqualTo(1);
            if (!commands.isEmpty())
            {
                final Cancel cancel = (Cancel)commands.get(0);
                assertThat(cancel.quantity()).isEqualTo(request.shares());
                checkOwnId(sender, cancel.clientOrderId());
                assertThat(tokens.get(cancel.clientOrderId())).isEqualTo(request.orderTokenAsString());
                handedOver(cancel, cancel.clientOrderId(), null);
            }
        }

        private void checkModify(
            final UserSession sender, final ModifyOrder request, final List<Object> commands,
            final List<Object> messages)
        {
            final String token = request.orderTokenAsString();
            assertThat(commands).hasSizeLessThanOrEqualTo(1);
            if (!commands.isEmpty())
            {
                final Cancel cancel = (Cancel)commands.get(0);
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
                final long orderId = ++nextOrderId;
                final List<Object> accepted = deliver(order.clientOrderId(), () -> events.accepted(midnightNs,
                    order.clientOrderId(), orderId, order.symbol(), side(order.buy()), order.quantity(), order.price(),
                    order.timeInForce(), order.display()));
                assertThat(accepted).hasSize(1).first().isInstanceOfSatisfying(Accepted.class,
                    (message) -> assertThat(message.token()).isEqualTo(tokens.get(order.clientOrderId())));
                if (Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == order.timeInForce())
                {
                    checkCanceled(order.clientOrderId(), deliver(order.clientOrderId(), () -> events.canceled(
                        midnightNs, order.clientOrderId(), orderId, order.symbol(), order.quantity(), 0,
                        Ouch42.CANCEL_IMMEDIATE_OR_CANCEL, false)));
                }
                else
                {
                    book.put(order.clientOrderId(),
                        new Resting(orderId, order.symbol(), order.buy(), order.quantity(), order.price()));
                }
            }
            else if (command instanceof Replace replace)
            {
                final Resting resting = book.remove(replace.clientOrderId());
                if (null == resting)
                {
                    rejectWith(replace.newClientOrderId(), "AAPL", Ouch42.REJECT_OTHER);
                    return;
                }
                final long newOrderId = ++nextOrderId;
                final List<Object> replaced = deliver(replace.newClientOrderId(), () -> events.replaced(midnightNs,
                    replace.clientOrderId(), replace.newClientOrderId(), resting.orderId(), newOrderId,
                    resting.symbol(), side(resting.buy()), replace.quantity(), replace.price()));
                assertThat(replaced).hasSize(1).first().isInstanceOfSatisfying(Replaced.class,
                    (message) -> assertThat(message.token()).isEqualTo(tokens.get(replace.newClientOrderId())));
                book.put(replace.newClientOrderId(), new Resting(
                    newOrderId, resting.symbol(), resting.buy(), replace.quantity(), replace.price()));
            }
            else if (command instanceof Cancel cancel)
            {
                final Resting resting = book.get(cancel.clientOrderId());
                if (null != resting && resting.quantity() > cancel.quantity())
                {
                    reduce(cancel.clientOrderId(), resting, resting.quantity() - cancel.quantity());
                    checkCanceled(cancel.clientOrderId(), deliver(cancel.clientOrderId(), () -> events.canceled(
                        midnightNs, cancel.clientOrderId(), resting.orderId(), resting.symbol(),
                        resting.quantity() - cancel.quantity(), cancel.quantity(), Ouch42.CANCEL_USER_REQUESTED)));
                }
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

        /** The oldest resting order trades with an order of another gateway. */
        void execute(final int size)
        {
            final Iterator<Map.Entry<Long, Resting>> orders = book.entrySet().iterator();
            if (!orders.hasNext())
            {
                return;
            }
            final Map.Entry<Long, Resting> maker = orders.next();
            final Resting resting = maker.getValue();
            final long quantity = Math.min(resting.quantity(), 1 + size);
            final long matchNumber = ++nextMatchNumber;
            reduce(maker.getKey(), resting, quantity);
            final List<Object> messages = deliver(maker.getKey(), () -> events.executed(midnightNs, matchNumber,
                resting.symbol(), quantity, resting.price(), ((long)OTHER_GATEWAY_ID << 56) | matchNumber,
                ++nextOrderId, side(!resting.buy()), maker.getKey(), resting.orderId(), resting.quantity() - quantity,
                0));
            assertThat(messages).isNotEmpty().first().isEqualTo(new Executed(midnightNs, tokens.get(maker.getKey()),
                quantity, resting.price(), (char)Ouch42.LIQUIDITY_ADDED, matchNumber));
            assertThat(messages.subList(1, messages.size())).allMatch(Modified.class::isInstance);
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

        private void reduce(final long clientOrderId, final Resting resting, final long by)
        {
            if (resting.quantity() == by)
            {
                book.remove(clientOrderId);
            }
            else
            {
                book.put(clientOrderId, new Resting(
                    resting.orderId(), resting.symbol(), resting.buy(), resting.quantity() - by, resting.price()));
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
            return 1 == sessionIndex ? alice : 2 == sessionIndex ? bob : null;
        }

        private List<Object> newCommands()
        {
            final List<Object> all = engine.commands();
            final List<Object> added = all.subList(commandsSeen, all.size());
            commandsSeen = all.size();
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
            CloseHelper.closeAll(alice.journal(), bob.journal());
            for (final String name : Arrays.asList("alice.journal", "bob.journal"))
            {
                IoUtil.deleteIfExists(journalDir.resolve(name).toFile());
            }
        }
    }
}
