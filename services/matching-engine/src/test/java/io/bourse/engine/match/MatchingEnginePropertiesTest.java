package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.EngineCommand.AdvanceClock;
import io.bourse.engine.match.EngineCommand.Cancel;
import io.bourse.engine.match.EngineCommand.Move;
import io.bourse.engine.match.EngineCommand.NewOrder;
import io.bourse.engine.match.EngineCommand.Replace;
import io.bourse.engine.match.EngineCommand.SetFirmSelfTradePrevention;
import io.bourse.engine.match.EngineCommand.SetPriceBand;
import io.bourse.engine.match.EngineCommand.SetSelfTradePrevention;
import io.bourse.engine.match.EngineCommand.SetTradingState;
import io.bourse.engine.match.EngineCommand.Target;
import io.bourse.engine.match.EngineCommand.TargetKind;
import io.bourse.engine.match.EngineEventLog.Accepted;
import io.bourse.engine.match.EngineEventLog.Canceled;
import io.bourse.engine.match.EngineEventLog.Event;
import io.bourse.engine.match.EngineEventLog.Executed;
import io.bourse.engine.match.EngineEventLog.PriorityUpdated;
import io.bourse.engine.match.EngineEventLog.Replaced;
import io.bourse.engine.match.ReferenceMatchingEngine.BookEntry;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Configuration;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

/**
 * Proof of correctness of the matching core (issue 3): random command sequences drive {@link MatchingEngine} and
 * {@link ReferenceMatchingEngine}; after every command both must have answered alike, emitted the same events (whole,
 * display included, midpoint pegs' order priority updates too) and hold the same books (pegs included), midpoints,
 * states, bands, clock and self-trade prevention modes, and the engine's books must satisfy their invariants. The
 * sequences mix orders of every display (attributable, anonymous, hidden, post-only, midpoint peg, and an unsupported
 * one) and every time in force (day, system hours, good-till-seconds of a few seconds, immediate-or-cancel with and
 * without a minimum quantity) at a few prices around one mid, so that books form and orders cross; a clock that
 * advances, sometimes backwards, so that orders expire; cancels to new sizes, replaces keeping and losing priority,
 * moves, often of the best bid or offer; trading states, trading pauses and price bands; orders of two firms under
 * every self-trade prevention mode, the engine's and each firm's own; and commands that must be rejected or ignored.
 * Each run must produce every outcome of {@link #REQUIRED_OUTCOMES} ({@link CommandOutcomes}). Shrunk counterexamples
 * read as order tickets ({@link EngineCommand}), one command per line. 1000 sequences of 1 to 300 steps (a command, or
 * a trading pause of a few) per property (QuickTheories). Closing-cross orders and the cross commands are not generated
 * (the reference model has no cross): {@link MatchingEngineCrossTest} covers them with worked examples.
 * <p>
 * The seed is fixed so that every build checks the same sequences; a failure prints the seed it ran with. To explore
 * other sequences or reproduce a report, run for example {@code ./mvnw -o -pl services/matching-engine test
 * -Dtest=MatchingEnginePropertiesTest -DQT_SEED=42 -DQT_EXAMPLES=5000} ({@code QT_SEED} and {@code QT_EXAMPLES} are
 * QuickTheories' own property names).
 */
class MatchingEnginePropertiesTest
{
    private static final int SHARD = 3;
    private static final long MAX_ORDER_QUANTITY = 1_000;
    private static final String[] TRADED = {"AAPL", "MSFT"};
    private static final long[] SYMBOLS = Arrays.stream(TRADED).mapToLong(Symbols::pack).toArray();
    private static final int MAX_CLIENT_ORDER_ID = 40;
    private static final int[] FIRMS = {0, 1, 2};
    private static final long MID_PRICE = 1_000_000;
    private static final long TICK = 100;
    private static final long HALF_SECOND_NS = 500_000_000L;
    private static final long DEFAULT_SEED = 20_261_121L;
    private static final long SEED = Long.getLong(Configuration.SEED, DEFAULT_SEED);
    private static final int TRIES = Integer.getInteger(Configuration.EXAMPLES, 1_000);
    private static final int MAX_STEPS = 300;

    /** What the command sequences must make the engine do at least once per run, so that coverage cannot rot. */
    private static final List<String> REQUIRED_OUTCOMES = List.of(
        "NewOrder: rested", "NewOrder: traded, filled", "NewOrder: traded, rested", "NewOrder: traded, canceled I",
        "NewOrder: canceled I", "NewOrder: rejected S", "NewOrder: rejected O", "NewOrder: rejected N",
        "NewOrder: rejected Z", "NewOrder: rejected X", "NewOrder: rejected D",
        "Cancel: canceled U", "Cancel: nothing",
        "Replace: REPLACED at the same price", "Replace: REPLACED", "Replace: traded, rested",
        "Replace: traded, filled", "Replace: canceled U", "Replace: canceled, rejected O", "Replace: rejected O",
        "Replace: rejected Z", "Replace: rejected X",
        "Replace: canceled I", "Replace: traded, canceled I", "Replace: rejected D",
        "Replace: REPLACED to another time in force, good-till-seconds", "Replace: REMOVED to another time in force",
        "AdvanceClock: canceled T after a new time in force",
        "Move: REPLACED", "Move: traded, rested", "Move: traded, filled", "Move: rejected O", "Move: rejected X",
        "NewOrder: rejected C", "NewOrder: rejected H", "Replace: rejected C", "Replace: rejected H",
        "Move: rejected C", "Move: rejected H", "NewOrder: rejected X in band", "Replace: rejected X in band",
        "Move: rejected X in band", "SetTradingState: nothing", "SetPriceBand: nothing",
        "SetSelfTradePrevention: nothing", "SetFirmSelfTradePrevention: nothing",
        "NewOrder: self-match CANCEL_NEWEST", "NewOrder: self-match CANCEL_OLDEST",
        "NewOrder: self-match CANCEL_BOTH", "NewOrder: self-match DECREMENT", "Replace: self-match CANCEL_OLDEST",
        "Replace: self-match DECREMENT", "Move: self-match CANCEL_NEWEST", "Move: self-match DECREMENT",
        "self-match by firm mode CANCEL_NEWEST", "self-match by firm mode CANCEL_OLDEST",
        "self-match by firm mode CANCEL_BOTH", "self-match by firm mode DECREMENT",
        "self-trade allowed by firm mode NONE", "self-match in a peg sweep",
        "NewOrder ATTRIBUTABLE: traded, rested", "NewOrder NON_DISPLAYED: rested",
        "NewOrder NON_DISPLAYED: traded, rested", "NewOrder POST_ONLY: rested", "NewOrder POST_ONLY: repriced",
        "NewOrder: rejected X after repricing", "Replace POST_ONLY: repriced", "Move POST_ONLY: repriced",
        "NewOrder MIDPOINT_PEG: rested", "NewOrder MIDPOINT_PEG: traded, rested",
        "NewOrder MIDPOINT_PEG: traded, filled", "NewOrder MIDPOINT_PEG: canceled I",
        "NewOrder MIDPOINT_PEG: traded, canceled I", "Replace MIDPOINT_PEG: REPLACED",
        "Replace MIDPOINT_PEG: REMOVED", "Move MIDPOINT_PEG: REPLACED",
        "hidden executed behind displayed", "ATTRIBUTABLE executed as maker", "NON_DISPLAYED executed as maker",
        "POST_ONLY executed as maker", "MIDPOINT_PEG executed as maker", "MIDPOINT_PEG executed as taker",
        "NewOrder: minimum quantity met against a peg", "NewOrder: minimum quantity with a self-match",
        "NewOrder: peg sweep", "Cancel: peg sweep", "Replace: peg sweep", "Move: peg sweep",
        "AdvanceClock: peg sweep", "SetTradingState: peg sweep",
        "AdvanceClock: nothing", "AdvanceClock: earlier timestamp", "AdvanceClock: canceled T",
        "AdvanceClock: several expired", "AdvanceClock: canceled T MIDPOINT_PEG",
        "AdvanceClock: canceled T NON_DISPLAYED", "SetTradingState: canceled E",
        "SetTradingState: canceled E MIDPOINT_PEG", "SetTradingState: canceled E NON_DISPLAYED",
        "NewOrder: priority update", "Cancel: priority update", "Replace: priority update", "Move: priority update",
        "AdvanceClock: priority update", "SetTradingState: priority update", "priority update to the midpoint",
        "priority update to the limit", "priority update of the command's peg", "priority update of an older peg",
        "Cancel: priority update while HALTED", "AdvanceClock: priority update while HALTED");

    @Test
    void shouldEmitSameEventsAndHoldSameBooksAsReferenceModel()
    {
        final Set<String> outcomes = new HashSet<>();
        check((commands) -> assertSameAsReferenceModel(commands, outcomes));
        assertThat(REQUIRED_OUTCOMES).as("outcomes over %d sequences (seed %d)", TRIES, SEED).isSubsetOf(outcomes);
    }

    @Test
    void shouldNeverCrossAndShouldConserveQuantityInPriceTimeOrder()
    {
        check(MatchingEnginePropertiesTest::assertInvariants);
    }

    /** Runs a property over {@link #TRIES} command sequences from {@link #SEED}, shrinking any counterexample. */
    private static void check(final Consumer<List<EngineCommand>> property)
    {
        qt().withFixedSeed(SEED).withExamples(TRIES).withReporter(new CommandListReporter(property))
            .forAll(commandSequences()).checkAssert(property);
    }

    /** After every command: same answer, same events, same state; records what each command did. */
    private static void assertSameAsReferenceModel(final List<EngineCommand> commands, final Set<String> outcomes)
    {
        final EngineEventLog engineEvents = new EngineEventLog();
        final EngineEventLog modelEvents = new EngineEventLog();
        final MatchingEngine engine = new MatchingEngine(SHARD, SYMBOLS, MAX_ORDER_QUANTITY, engineEvents);
        final ReferenceMatchingEngine model =
            new ReferenceMatchingEngine(SHARD, SYMBOLS, MAX_ORDER_QUANTITY, modelEvents);
        final OrderEntry engineEntry = OrderEntry.of(engine);
        final CommandOutcomes commandOutcomes = new CommandOutcomes();
        final List<EngineCommand> trace = new ArrayList<>();

        for (final EngineCommand command : commands)
        {
            final EngineCommand concrete = command.resolve(openOrders(engine), engine.clockNs());
            trace.add(concrete);
            final boolean engineAnswer = concrete.applyTo(engineEntry);
            final boolean modelAnswer = concrete.applyTo(model);

            final List<Event> events = engineEvents.drain();
            assertThat(events).as("events after %s", trace).isEqualTo(modelEvents.drain());
            assertThat(engineAnswer).as("answer to %s", trace).isEqualTo(modelAnswer);
            assertSameState(engine, model, trace);
            outcomes.addAll(commandOutcomes.of(concrete, events, engine));
        }
    }

    /** Books (pegs and displays included), midpoints, states, bands, clock, open orders, self-trade modes. */
    private static void assertSameState(
        final MatchingEngine engine, final ReferenceMatchingEngine model, final List<EngineCommand> trace)
    {
        for (final long symbol : SYMBOLS)
        {
            final OrderBook book = engine.book(symbol);
            final String name = Symbols.toString(symbol);
            for (final Side side : Side.values())
            {
                assertThat(book(engine, symbol, side)).as("%s %s book after %s", name, side, trace)
                    .isEqualTo(model.book(symbol, side));
                assertThat(book.bestDisplayedPrice(side)).as("%s best displayed %s after %s", name, side, trace)
                    .isEqualTo(model.bestDisplayedPrice(symbol, side));
            }
            assertThat(book.midpoint()).as("%s midpoint after %s", name, trace).isEqualTo(model.midpoint(symbol));
            assertThat(book.tradingState()).as("%s state after %s", name, trace).isEqualTo(model.tradingState(symbol));
            assertThat(new long[]{book.lowestPrice(), book.highestPrice()}).as("%s band after %s", name, trace)
                .isEqualTo(model.priceLimits(symbol));
        }
        assertThat(engine.clockNs()).as("clock after %s", trace).isEqualTo(model.clockNs());
        assertThat(engine.openOrderCount()).as("open orders after %s", trace).isEqualTo(model.openOrderCount());
        for (long clientOrderId = 1; clientOrderId <= MAX_CLIENT_ORDER_ID; clientOrderId++)
        {
            assertThat(engine.openQuantity(clientOrderId)).as("open quantity of #%d after %s", clientOrderId,
                trace).isEqualTo(model.openQuantity(clientOrderId));
        }
        for (final int firm : FIRMS)
        {
            assertThat(engine.selfTradePrevention(firm)).as("firm %d self-trade prevention after %s", firm, trace)
                .isEqualTo(model.selfTradePrevention(firm));
        }
    }

    /**
     * After every command: books uncrossed (no eligible peg crossing at the midpoint while open), in price-time
     * order with displayed before hidden and pegs last, consistent with the book's summaries, every share entered
     * accounted for, and the owner of every resting peg told its working price (the midpoint while within its limit,
     * else its limit) by the events alone.
     */
    private static void assertInvariants(final List<EngineCommand> commands)
    {
        final EngineEventLog events = new EngineEventLog();
        final MatchingEngine engine = new MatchingEngine(SHARD, SYMBOLS, MAX_ORDER_QUANTITY, events);
        final OrderEntry engineEntry = OrderEntry.of(engine);
        final QuantityLedger ledger = new QuantityLedger();
        final List<EngineCommand> trace = new ArrayList<>();

        for (final EngineCommand command : commands)
        {
            final EngineCommand concrete = command.resolve(openOrders(engine), engine.clockNs());
            trace.add(concrete);
            concrete.applyTo(engineEntry);
            events.drain().forEach(ledger::onEvent);

            final Map<Long, Long> resting = new HashMap<>();
            for (final long symbol : SYMBOLS)
            {
                assertBookInvariants(engine.book(symbol), trace);
                final long mid = engine.book(symbol).midpoint();
                for (final Side side : Side.values())
                {
                    for (final BookEntry order : book(engine, symbol, side))
                    {
                        resting.put(order.orderId(), order.remaining());
                        if (Display.MIDPOINT_PEG == order.display())
                        {
                            final boolean eligible = 0 != mid && (Side.BUY == side ? mid <= order.price() :
                                mid >= order.price());
                            assertThat(ledger.heardPrice(order.orderId()))
                                .as("price the owner of peg %s last heard at midpoint %d after %s", order, mid, trace)
                                .isEqualTo(eligible ? mid : order.price());
                        }
                    }
                }
            }

            final long restingQuantity = resting.values().stream().mapToLong(Long::longValue).sum();
            assertThat(ledger.entered).as("entered = 2 x executed + canceled + resting after %s", trace)
                .isEqualTo(2 * ledger.executed + ledger.canceled + restingQuantity);
            assertThat(ledger.openOrders()).as("orders the events leave open = the book after %s", trace)
                .isEqualTo(resting);
        }
    }

    private static void assertBookInvariants(final OrderBook book, final List<EngineCommand> trace)
    {
        final String name = Symbols.toString(book.symbol());
        final Map<Side, List<BookEntry>> levels = new HashMap<>();
        final Map<Side, List<BookEntry>> pegs = new HashMap<>();
        for (final Side side : Side.values())
        {
            final List<BookEntry> orders = book(book, side);
            levels.put(side, orders.stream().filter((order) -> Display.MIDPOINT_PEG != order.display()).toList());
            pegs.put(side, orders.stream().filter((order) -> Display.MIDPOINT_PEG == order.display()).toList());
            assertThat(orders).as("%s %s pegs after the levels after %s", name, side, trace)
                .isEqualTo(concat(levels.get(side), pegs.get(side)));
            assertThat(orders).as("%s resting sizes after %s", name, trace).allMatch((order) -> order.remaining() > 0);
            assertPriceTimeOrder(levels.get(side), side, trace);
            assertThat(pegs.get(side)).as("%s %s pegs in time order after %s", name, side, trace)
                .isSortedAccordingTo(Comparator.comparingLong(BookEntry::orderId));
            assertSummaries(book, side, levels.get(side), pegs.get(side), trace);
        }

        final long bid = book.bestPrice(Side.BUY);
        final long ask = book.bestPrice(Side.SELL);
        assertThat(0 == bid || 0 == ask || bid < ask).as("%s crossed %d >= %d after %s", name, bid, ask, trace)
            .isTrue();
        final long displayedBid = book.bestDisplayedPrice(Side.BUY);
        final long displayedAsk = book.bestDisplayedPrice(Side.SELL);
        final long mid = 0 == displayedBid || 0 == displayedAsk ? 0 : (displayedBid + displayedAsk) / 2;
        assertThat(book.midpoint()).as("%s midpoint after %s", name, trace).isEqualTo(mid);
        if (TradingState.OPEN == book.tradingState() && 0 != mid)
        {
            final boolean bidPeg = pegs.get(Side.BUY).stream().anyMatch((peg) -> mid <= peg.price());
            final boolean askPeg = pegs.get(Side.SELL).stream().anyMatch((peg) -> mid >= peg.price());
            assertThat(bidPeg && askPeg).as("%s eligible pegs crossed at %d after %s", name, mid, trace).isFalse();
            assertThat(bidPeg && 0 != ask && ask <= mid).as("%s bid peg crosses offer %d at %d after %s", name, ask,
                mid, trace).isFalse();
            assertThat(askPeg && bid >= mid).as("%s offer peg crosses bid %d at %d after %s", name, bid, mid, trace)
                .isFalse();
        }
    }

    /** Best price first; at a price displayed before hidden; within each, reference numbers ascend (time order). */
    private static void assertPriceTimeOrder(final List<BookEntry> orders, final Side side, final List<?> trace)
    {
        for (int i = 1; i < orders.size(); i++)
        {
            final BookEntry ahead = orders.get(i - 1);
            final BookEntry behind = orders.get(i);
            final boolean betterPrice = side == Side.BUY ? ahead.price() > behind.price() :
                ahead.price() < behind.price();
            final boolean samePrice = ahead.price() == behind.price();
            final boolean displayedFirst = ahead.display().isDisplayed() && !behind.display().isDisplayed();
            final boolean sameDisplay = ahead.display().isDisplayed() == behind.display().isDisplayed();
            assertThat(betterPrice || (samePrice && displayedFirst) ||
                (samePrice && sameDisplay && ahead.orderId() < behind.orderId()))
                .as("%s ahead of %s after %s", ahead, behind, trace).isTrue();
        }
    }

    /** Best prices, best quantity, level and peg counts as the visited orders make them. */
    private static void assertSummaries(
        final OrderBook book, final Side side, final List<BookEntry> levels, final List<BookEntry> pegs,
        final List<?> trace)
    {
        final long best = levels.isEmpty() ? 0 : levels.getFirst().price();
        assertThat(book.bestPrice(side)).as("best %s after %s", side, trace).isEqualTo(best);
        assertThat(book.bestQuantity(side)).as("best %s quantity after %s", side, trace).isEqualTo(
            levels.stream().filter((order) -> order.price() == best).mapToLong(BookEntry::remaining).sum());
        assertThat(book.bestDisplayedPrice(side)).as("best displayed %s after %s", side, trace).isEqualTo(
            levels.stream().filter((order) -> order.display().isDisplayed()).mapToLong(BookEntry::price)
                .findFirst().orElse(0));
        assertThat(book.levelCount(side)).as("%s levels after %s", side, trace)
            .isEqualTo((int)levels.stream().mapToLong(BookEntry::price).distinct().count());
        assertThat(book.pegCount(side)).as("%s pegs after %s", side, trace).isEqualTo(pegs.size());
    }

    private static List<BookEntry> concat(final List<BookEntry> first, final List<BookEntry> second)
    {
        final List<BookEntry> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** @return every resting order of every book, by client order id. */
    private static List<BookEntry> openOrders(final MatchingEngine engine)
    {
        final List<BookEntry> orders = new ArrayList<>();
        for (final long symbol : SYMBOLS)
        {
            for (final Side side : Side.values())
            {
                orders.addAll(book(engine, symbol, side));
            }
        }
        orders.sort(Comparator.comparingLong(BookEntry::clientOrderId));
        return orders;
    }

    private static List<BookEntry> book(final MatchingEngine engine, final long symbol, final Side side)
    {
        return book(engine.book(symbol), side);
    }

    private static List<BookEntry> book(final OrderBook book, final Side side)
    {
        final List<BookEntry> orders = new ArrayList<>();
        book.forEachOrder(side, (clientOrderId, orderId, s, price, remaining, display) ->
            orders.add(new BookEntry(clientOrderId, orderId, s, price, remaining, display)));
        return orders;
    }

    /**
     * Shares per order reference number as the events alone tell them: entered by acceptances and replaces, taken out
     * by executions (from taker and maker) and cancels (user, immediate-or-cancel, self-match, expiry, close). Also the
     * price each order's owner last heard: the one its acceptance or replace echoed, then each order priority update's,
     * which must name an order with shares open.
     */
    private static final class QuantityLedger
    {
        private final Map<Long, Long> openByOrderId = new HashMap<>();
        private final Map<Long, Long> heardPriceByOrderId = new HashMap<>();
        private long entered;
        private long executed;
        private long canceled;

        void onEvent(final Event event)
        {
            switch (event)
            {
                case Accepted accepted ->
                {
                    entered += accepted.quantity();
                    openByOrderId.put(accepted.orderId(), accepted.quantity());
                    heardPriceByOrderId.put(accepted.orderId(), accepted.price());
                }
                case Executed execution ->
                {
                    executed += execution.quantity();
                    openByOrderId.merge(execution.takerOrderId(), -execution.quantity(), Long::sum);
                    openByOrderId.merge(execution.makerOrderId(), -execution.quantity(), Long::sum);
                }
                case Canceled cancel ->
                {
                    canceled += cancel.canceled();
                    openByOrderId.merge(cancel.orderId(), -cancel.canceled(), Long::sum);
                }
                case Replaced replaced ->
                {
                    final long before = openByOrderId.remove(replaced.orderId());
                    entered += replaced.quantity() - before;
                    openByOrderId.put(replaced.newOrderId(), replaced.quantity());
                    heardPriceByOrderId.put(replaced.newOrderId(), replaced.price());
                }
                case PriorityUpdated update ->
                {
                    assertThat(openByOrderId.getOrDefault(update.orderId(), 0L)).as("open shares of %s", update)
                        .isPositive();
                    assertThat(update.display()).as("display of %s", update).isEqualTo(Display.MIDPOINT_PEG);
                    heardPriceByOrderId.put(update.orderId(), update.price());
                }
                default ->
                {
                }
            }
        }

        /**
         * @param orderId an order reference number.
         * @return the price its owner last heard, null when no event named it.
         */
        Long heardPrice(final long orderId)
        {
            return heardPriceByOrderId.get(orderId);
        }

        /** @return orders with shares still open, by reference number; an order never goes below zero. */
        Map<Long, Long> openOrders()
        {
            assertThat(openByOrderId.values()).as("open shares per order").allMatch((open) -> open >= 0);
            final Map<Long, Long> open = new HashMap<>(openByOrderId);
            open.values().removeIf((shares) -> 0 == shares);
            return open;
        }
    }

    /**
     * Half the sequences mix every kind of command and order on every symbol. The other half centre on the midpoint of
     * one symbol: pegs and non-displayed orders near the mid, on half ticks where the midpoint often lies, displayed
     * orders a few ticks away, many good-till-seconds orders, trading pauses and cancels of the best bid or offer, so
     * that resting pegs often come to cross when the midpoint moves (an entry, a cancel, an expiry, a reopening) and
     * the peg sweep runs.
     */
    private static Gen<List<EngineCommand>> commandSequences()
    {
        final SequenceKind everything = new SequenceKind(symbols(),
            Generate.frequency(
                Pair.of(30, Generate.constant(Display.ANONYMOUS)),
                Pair.of(10, Generate.constant(Display.ATTRIBUTABLE)),
                Pair.of(20, Generate.constant(Display.NON_DISPLAYED)),
                Pair.of(15, Generate.constant(Display.POST_ONLY)),
                Pair.of(27, Generate.constant(Display.MIDPOINT_PEG)),
                Pair.of(3, Generate.constant((Display)null))),
            Generate.frequency(
                Pair.of(30, Generate.constant(MatchingEngine.TIME_IN_FORCE_MARKET_HOURS)),
                Pair.of(12, Generate.constant(MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS)),
                Pair.of(15, Generate.constant(MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL)),
                Pair.of(28, integers().between(1, 4)),
                Pair.of(2, Generate.constant(MatchingEngine.TIME_IN_FORCE_MAX_SECONDS)),
                Pair.of(3, Generate.pick(List.of(-1, MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS + 1)))),
            ticks(-2, 6, TICK), ticks(-2, 6, TICK), 10, 1, 8, 3, 1);
        final SequenceKind aroundTheMidpoint = new SequenceKind(Generate.constant(TRADED[0]),
            Generate.frequency(
                Pair.of(40, Generate.constant(Display.ANONYMOUS)),
                Pair.of(10, Generate.constant(Display.NON_DISPLAYED)),
                Pair.of(10, Generate.constant(Display.POST_ONLY)),
                Pair.of(40, Generate.constant(Display.MIDPOINT_PEG))),
            Generate.frequency(
                Pair.of(25, Generate.constant(MatchingEngine.TIME_IN_FORCE_MARKET_HOURS)),
                Pair.of(30, Generate.constant(MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS)),
                Pair.of(10, Generate.constant(MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL)),
                Pair.of(35, integers().between(1, 3))),
            ticks(1, 6, TICK), ticks(-2, 2, TICK / 2), 5, 4, 10, 3, 5);
        return Generate.frequency(
            Pair.of(1, sequences(everything)),
            Pair.of(1, sequences(aroundTheMidpoint)));
    }

    /** Up to {@link #MAX_STEPS} steps, each one command or a trading pause of a few. */
    private static Gen<List<EngineCommand>> sequences(final SequenceKind kind)
    {
        final Gen<List<EngineCommand>> steps = Generate.frequency(
            Pair.of(100, commands(kind).map((command) -> List.of(command))),
            Pair.of(kind.pauses(), pauses()));
        return lists().of(steps).ofType(lists().arrayList()).ofSizeBetween(1, MAX_STEPS)
            .map((commands) -> commands.stream().flatMap(List::stream).toList());
    }

    /**
     * A halt or close of the busiest symbol, one to four cancels (mostly of the best bid or offer), clock ticks or
     * replaces (the midpoint moves while no peg may execute), and the reopening, whose peg sweep must catch up.
     */
    private static Gen<List<EngineCommand>> pauses()
    {
        final Gen<EngineCommand> during = Generate.frequency(
            Pair.of(2, quotePulls()),
            Pair.of(1, cancels()),
            Pair.of(2, clockTicks()),
            Pair.of(1, replaces()));
        final Gen<TradingState> states = Generate.frequency(
            Pair.of(3, Generate.constant(TradingState.HALTED)),
            Pair.of(1, Generate.constant(TradingState.CLOSED)));
        return states.zip(lists().of(during).ofSizeBetween(1, 4), (state, commands) ->
        {
            final List<EngineCommand> pause = new ArrayList<>();
            pause.add(new SetTradingState(TRADED[0], state));
            pause.addAll(commands);
            pause.add(new SetTradingState(TRADED[0], TradingState.OPEN));
            return pause;
        });
    }

    private static Gen<EngineCommand> commands(final SequenceKind kind)
    {
        return Generate.frequency(
            Pair.of(45, newOrders(kind)),
            Pair.of(kind.cancels(), cancels()),
            Pair.of(kind.quotePulls(), quotePulls()),
            Pair.of(17, replaces()),
            Pair.of(8, moves()),
            Pair.of(kind.clockTicks(), clockTicks()),
            Pair.of(kind.tradingStates(), tradingStates()),
            Pair.of(2, priceBands()),
            Pair.of(1, Generate.enumValues(SelfTradePrevention.class).map(SetSelfTradePrevention::new)),
            Pair.of(2, firmSelfTradePreventions()));
    }

    /**
     * What one kind of sequence looks like: its new orders and how often some other commands come.
     *
     * @param symbols       its orders' symbols.
     * @param displays      its orders' displays (null: unsupported).
     * @param timesInForce  its orders' times in force.
     * @param offsets       its displayed orders' prices, as offsets from the mid towards the order's passive side in
     *                      1/10000 dollars (negative: through the mid), the aggressive side for immediate-or-cancel
     *                      orders, except for a few prices at or beyond the limits.
     * @param hiddenOffsets the same for non-displayed orders and midpoint pegs' limits.
     * @param cancels       weight of cancels among the commands, out of about 100.
     * @param quotePulls    weight of cancels of the best bid or offer ({@link #quotePulls()}).
     * @param clockTicks    weight of clock ticks.
     * @param tradingStates weight of trading state changes.
     * @param pauses        weight of trading pauses ({@link #pauses()}).
     */
    private record SequenceKind(Gen<String> symbols, Gen<Display> displays, Gen<Integer> timesInForce,
        Gen<Long> offsets, Gen<Long> hiddenOffsets, int cancels, int quotePulls, int clockTicks, int tradingStates,
        int pauses)
    {
    }

    private static Gen<EngineCommand> newOrders(final SequenceKind kind)
    {
        final Gen<MinimumKind> minimumKinds = Generate.frequency(
            Pair.of(45, Generate.constant(MinimumKind.NONE)),
            Pair.of(20, Generate.constant(MinimumKind.FILL_OR_KILL)),
            Pair.of(15, Generate.constant(MinimumKind.PART)),
            Pair.of(5, Generate.constant(MinimumKind.INVALID)));
        final Gen<Long> clientOrderIds = clientOrderIds();
        final Gen<Side> sides = Generate.enumValues(Side.class);
        final Gen<Long> quantities = quantities();
        final Gen<Integer> parts = integers().between(1, (int)MAX_ORDER_QUANTITY);
        final Gen<Integer> firms = Generate.frequency(
            Pair.of(2, Generate.constant(0)),
            Pair.of(3, Generate.constant(1)),
            Pair.of(3, Generate.constant(2)));
        final Gen<Boolean> atLimits = Generate.frequency(
            Pair.of(92, Generate.constant(false)),
            Pair.of(8, Generate.constant(true)));
        final Gen<Long> limitPrices = limitPrices();
        return (random) ->
        {
            final long clientOrderId = clientOrderIds.generate(random);
            final String symbol = kind.symbols().generate(random);
            final Side side = sides.generate(random);
            final long quantity = quantities.generate(random);
            final long displayedOffset = kind.offsets().generate(random);
            final long hiddenOffset = kind.hiddenOffsets().generate(random);
            final boolean atLimit = atLimits.generate(random);
            final long limitPrice = limitPrices.generate(random);
            final int timeInForce = kind.timesInForce().generate(random);
            final MinimumKind minimumKind = minimumKinds.generate(random);
            final int part = parts.generate(random);
            final int firm = firms.generate(random);
            final Display display = kind.displays().generate(random);
            final boolean immediateOrCancel = MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL == timeInForce;
            final long passiveOffset = null != display && !display.isDisplayed() ? hiddenOffset : displayedOffset;
            final long offset = immediateOrCancel ? -passiveOffset : passiveOffset;
            final long price = atLimit ? limitPrice : MID_PRICE + (Side.BUY == side ? -offset : offset);
            return new NewOrder(clientOrderId, symbol, side, quantity, price, timeInForce,
                minimumKind.minimum(quantity, immediateOrCancel, part), firm, display);
        };
    }

    /**
     * Mostly forward by half-second steps, so that good-till-seconds orders expire a few commands after entry and
     * several often share one expiry; sometimes not at all, sometimes backwards (a lagging gateway's timestamp).
     */
    private static Gen<EngineCommand> clockTicks()
    {
        return Generate.frequency(
            Pair.of(2, Generate.constant(0L)),
            Pair.of(12, longs().between(1, 4).map((halves) -> halves * HALF_SECOND_NS)),
            Pair.of(1, Generate.constant(-2 * HALF_SECOND_NS)))
            .map((nanos) -> new AdvanceClock(nanos, true));
    }

    /** Mostly back to open, so that books spend most of a sequence trading; sometimes a symbol not traded. */
    private static Gen<EngineCommand> tradingStates()
    {
        final Gen<TradingState> states = Generate.frequency(
            Pair.of(6, Generate.constant(TradingState.OPEN)),
            Pair.of(1, Generate.constant(TradingState.HALTED)),
            Pair.of(1, Generate.constant(TradingState.CLOSED)));
        return symbols().zip(states, SetTradingState::new);
    }

    /**
     * Bands a few ticks wide around a price near the mid (a tick is one basis point there), so that the generated
     * prices fall on both sides of the bounds; sometimes a reference price off the tick grid, so that the bounds
     * round, sometimes no band, and sometimes a reference price or band out of range, which changes nothing.
     */
    private static Gen<EngineCommand> priceBands()
    {
        final Gen<Long> references = Generate.frequency(
            Pair.of(6, longs().between(-2, 2).map((ticks) -> MID_PRICE + ticks * TICK)),
            Pair.of(2, longs().between(-2 * TICK, 2 * TICK).map((offset) -> MID_PRICE + offset)),
            Pair.of(4, Generate.constant(0L)));
        final Gen<Integer> bands = Generate.frequency(
            Pair.of(1, Generate.pick(List.of(0, 1))),
            Pair.of(2, Generate.pick(List.of(2, 3))),
            Pair.of(4, Generate.pick(List.of(5, 6))),
            Pair.of(1, Generate.constant(10_000)));
        return Generate.frequency(
            Pair.of(10, symbols().zip(references, bands, SetPriceBand::new)),
            Pair.of(1, Generate.pick(List.of(new SetPriceBand(TRADED[0], MatchingEngine.MAX_PRICE + 1, 1),
                new SetPriceBand(TRADED[0], MID_PRICE, 10_001)))));
    }

    /** Either firm, any mode or back to the engine's. */
    private static Gen<EngineCommand> firmSelfTradePreventions()
    {
        final List<SelfTradePrevention> modes = new ArrayList<>(Arrays.asList(SelfTradePrevention.values()));
        modes.add(null);
        return integers().between(1, 2).zip(Generate.pick(modes), SetFirmSelfTradePrevention::new);
    }

    private static Gen<String> symbols()
    {
        return Generate.frequency(
            Pair.of(10, Generate.constant(TRADED[0])),
            Pair.of(4, Generate.constant(TRADED[1])),
            Pair.of(1, Generate.constant("GOOG")));
    }

    /** Mostly real sizes; a few negative ones, which the wire cannot carry but the core API must ignore. */
    private static Gen<EngineCommand> cancels()
    {
        final Gen<Long> sizes = Generate.frequency(
            Pair.of(3, Generate.constant(0L)),
            Pair.of(6, longs().between(1, 300)),
            Pair.of(1, Generate.constant(MAX_ORDER_QUANTITY)),
            Pair.of(1, Generate.constant(-1L)));
        return targets().zip(sizes, Cancel::new);
    }

    /** The best bid or offer canceled whole: the midpoint moves. */
    private static Gen<EngineCommand> quotePulls()
    {
        return longs().between(0, 1).map((k) -> new Cancel(new Target(TargetKind.BEST, k), 0));
    }

    /**
     * Any size (a few negative, which the wire cannot carry but the core API must reject), or a size from 1 to the
     * open size, at any price or the same one; mostly keeping the order's time in force, sometimes with one of any
     * kind (a few out of range).
     */
    private static Gen<EngineCommand> replaces()
    {
        final Gen<Target> targets = targets();
        final Gen<Long> clientOrderIds = clientOrderIds();
        final Gen<Long> quantities = quantities();
        final Gen<Long> prices = prices();
        final Gen<Boolean> flags = Generate.booleans();
        final Gen<Boolean> smaller = Generate.frequency(
            Pair.of(3, Generate.constant(false)),
            Pair.of(1, Generate.constant(true)));
        final Gen<Integer> timesInForce = Generate.frequency(
            Pair.of(24, Generate.constant(MatchingEngine.TIME_IN_FORCE_UNCHANGED)),
            Pair.of(4, Generate.constant(MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL)),
            Pair.of(6, integers().between(1, 4)),
            Pair.of(3, Generate.constant(MatchingEngine.TIME_IN_FORCE_MARKET_HOURS)),
            Pair.of(2, Generate.constant(MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS)),
            Pair.of(1, Generate.pick(List.of(-2, MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS + 1))));
        return (random) -> new Replace(targets.generate(random), clientOrderIds.generate(random),
            quantities.generate(random), prices.generate(random), flags.generate(random), smaller.generate(random),
            timesInForce.generate(random));
    }

    private static Gen<EngineCommand> moves()
    {
        return targets().zip(prices(), Move::new);
    }

    /** Mostly an open order, often the best bid or offer, sometimes a literal id that may be unknown or closed. */
    private static Gen<Target> targets()
    {
        return Generate.frequency(
            Pair.of(6, longs().between(0, MAX_CLIENT_ORDER_ID).map((k) -> new Target(TargetKind.OPEN, k))),
            Pair.of(3, longs().between(0, 1).map((k) -> new Target(TargetKind.BEST, k))),
            Pair.of(2, clientOrderIds().map(Target::id)));
    }

    /** A small id space, so that cancels, replaces and moves often find their order and new orders reuse ids. */
    private static Gen<Long> clientOrderIds()
    {
        return longs().between(1, MAX_CLIENT_ORDER_ID);
    }

    /** @return mostly real sizes, some at the limit, a few invalid (0, negative, above the limit). */
    private static Gen<Long> quantities()
    {
        return Generate.frequency(
            Pair.of(85, longs().between(1, 300)),
            Pair.of(10, Generate.pick(List.of(MAX_ORDER_QUANTITY - 1, MAX_ORDER_QUANTITY))),
            Pair.of(5, Generate.pick(List.of(0L, -1L, MAX_ORDER_QUANTITY + 1))));
    }

    /** Nine ticks around the mid, so that most replaces and moves cross; sometimes a price at or beyond the limits. */
    private static Gen<Long> prices()
    {
        return Generate.frequency(
            Pair.of(92, longs().between(-4, 4).map((ticks) -> MID_PRICE + ticks * TICK)),
            Pair.of(8, limitPrices()));
    }

    /** @return from {@code nearest} to {@code farthest} ticks of {@code tick} 1/10000 dollars. */
    private static Gen<Long> ticks(final int nearest, final int farthest, final long tick)
    {
        return longs().between(nearest, farthest).map((ticks) -> ticks * tick);
    }

    /** Prices at the limits, valid or not. */
    private static Gen<Long> limitPrices()
    {
        return Generate.frequency(
            Pair.of(1, Generate.pick(List.of(1L, MatchingEngine.MAX_PRICE))),
            Pair.of(1, Generate.pick(List.of(0L, -TICK, MatchingEngine.MAX_PRICE + 1))));
    }

    /**
     * Fails a property with its smallest counterexample, one command per line, and the seed to rerun it; the
     * assertion that failed, with the resolved commands it ran, is the cause. QuickTheories shrinks a sequence by
     * shortening it from the end and simplifying its values, so it cannot drop a command in the middle; this reporter
     * then drops every single command the failure does not need.
     */
    private static final class CommandListReporter implements Reporter
    {
        private final Consumer<List<EngineCommand>> property;

        CommandListReporter(final Consumer<List<EngineCommand>> property)
        {
            this.property = property;
        }

        @Override
        public void falisification(
            final long seed,
            final int examplesUsed,
            final Object smallest,
            final Throwable cause,
            final List<Object> examples,
            final AsString<Object> toString)
        {
            fail(seed, examplesUsed, smallest, cause);
        }

        @Override
        public void falisification(
            final long seed,
            final int examplesUsed,
            final Object smallest,
            final List<Object> examples,
            final AsString<Object> toString)
        {
            fail(seed, examplesUsed, smallest, null);
        }

        @Override
        public void valuesExhausted(final int completedExamples)
        {
            throw new IllegalStateException("gave up after " + completedExamples + " sequences");
        }

        @SuppressWarnings("unchecked")
        private void fail(final long seed, final int examplesUsed, final Object smallest, final Throwable cause)
        {
            final List<EngineCommand> shrunk = (List<EngineCommand>)smallest;
            final List<EngineCommand> commands = new ArrayList<>(shrunk);
            Throwable failure = cause;
            boolean dropped = true;
            while (dropped)
            {
                dropped = false;
                for (int i = commands.size() - 1; i >= 0 && commands.size() > 1; i--)
                {
                    final List<EngineCommand> shorter = new ArrayList<>(commands);
                    shorter.remove(i);
                    final Throwable shorterFailure = failure(shorter);
                    if (null != shorterFailure)
                    {
                        commands.remove(i);
                        failure = shorterFailure;
                        dropped = true;
                    }
                }
            }
            final String listing = commands.stream().map((command) -> "    " + command)
                .collect(Collectors.joining(System.lineSeparator()));
            throw new AssertionError("property falsified after " + examplesUsed + " sequences (seed " + seed +
                ", rerun with -D" + Configuration.SEED + "=" + seed + "); shrunk to " + shrunk.size() +
                " commands, of which these " + commands.size() + " fail it:" + System.lineSeparator() + listing,
                failure);
        }

        /** @return why the property fails for these commands, or null if it holds. */
        private Throwable failure(final List<EngineCommand> commands)
        {
            try
            {
                property.accept(commands);
                return null;
            }
            catch (final AssertionError | RuntimeException ex)
            {
                return ex;
            }
        }
    }

    /** How a new order's minimum quantity relates to its size; only immediate-or-cancel orders may have one. */
    private enum MinimumKind
    {
        NONE, FILL_OR_KILL, PART, INVALID;

        long minimum(final long quantity, final boolean immediateOrCancel, final int part)
        {
            return switch (this)
            {
                case NONE -> 0;
                case FILL_OR_KILL -> immediateOrCancel ? quantity : 0;
                case PART -> immediateOrCancel && quantity > 0 ? 1 + part % ((quantity + 3) / 4) : 0;
                case INVALID -> 0 == part % 3 ? -1 : 1 == part % 3 || immediateOrCancel ? quantity + 1 : 1;
            };
        }
    }
}
