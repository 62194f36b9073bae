package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.EngineCommand.AdvanceClock;
import io.bourse.engine.match.EngineCommand.Move;
import io.bourse.engine.match.EngineCommand.NewOrder;
import io.bourse.engine.match.EngineCommand.Replace;
import io.bourse.engine.match.EngineCommand.SetFirmSelfTradePrevention;
import io.bourse.engine.match.EngineCommand.SetSelfTradePrevention;
import io.bourse.engine.match.EngineEventLog.Accepted;
import io.bourse.engine.match.EngineEventLog.Added;
import io.bourse.engine.match.EngineEventLog.Canceled;
import io.bourse.engine.match.EngineEventLog.Event;
import io.bourse.engine.match.EngineEventLog.Executed;
import io.bourse.engine.match.EngineEventLog.PriorityUpdated;
import io.bourse.engine.match.EngineEventLog.Rejected;
import io.bourse.engine.match.EngineEventLog.Replaced;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names what each command of one sequence did ("NewOrder: traded, rested", "peg executed as maker", "AdvanceClock:
 * canceled T", ...), from the command, its events and the engine's state, so that the property test can require
 * every kind of outcome to happen at least once and its coverage cannot rot. Follows the orders' display, firm,
 * limit price and time in force through the sequence by reference number.
 */
final class CommandOutcomes
{
    private final Map<Long, Display> displays = new HashMap<>();
    private final Map<Long, Integer> firms = new HashMap<>();
    private final Map<Long, Long> limits = new HashMap<>();
    private final Map<Long, Integer> timesInForce = new HashMap<>();
    /** Reference numbers of the orders a replace gave another time in force. */
    private final Set<Long> timeInForceChanged = new HashSet<>();
    private final Map<Integer, SelfTradePrevention> firmModes = new HashMap<>();
    private SelfTradePrevention defaultMode = SelfTradePrevention.NONE;

    /**
     * @param command the resolved command, as applied.
     * @param events  its events.
     * @param engine  the engine after the command.
     * @return what the command did.
     */
    Set<String> of(final EngineCommand command, final List<Event> events, final MatchingEngine engine)
    {
        final String kind = command.getClass().getSimpleName();
        final Set<String> outcomes = new HashSet<>();
        outcomes.add(kind + ": " + summary(command, events, engine));
        final Set<Long> ownOrderIds = new HashSet<>();
        final Set<Long> displayedMakerPrices = new HashSet<>();
        int expired = 0;
        for (final Event event : events)
        {
            switch (event)
            {
                case Accepted accepted ->
                {
                    ownOrderIds.add(accepted.orderId());
                    displays.put(accepted.orderId(), accepted.display());
                    firms.put(accepted.orderId(), ((NewOrder)command).firm());
                    limits.put(accepted.orderId(), accepted.price());
                    timesInForce.put(accepted.orderId(), accepted.timeInForce());
                    outcomes.add(kind + " " + accepted.display() + ": " + summary(command, events, engine));
                    if (accepted.price() != ((NewOrder)command).price())
                    {
                        outcomes.add(kind + " " + accepted.display() + ": repriced");
                    }
                }
                case Replaced replaced ->
                {
                    ownOrderIds.add(replaced.newOrderId());
                    displays.put(replaced.newOrderId(), replaced.display());
                    firms.put(replaced.newOrderId(), firms.get(replaced.orderId()));
                    if (command instanceof Replace && replaced.price() == limits.get(replaced.orderId()))
                    {
                        outcomes.add(kind + ": " + replaced.bookUpdate() + " at the same price");
                    }
                    limits.put(replaced.newOrderId(), replaced.price());
                    final Integer timeInForce = timesInForce.get(replaced.orderId());
                    final int newTimeInForce = command instanceof Replace replace &&
                        MatchingEngine.TIME_IN_FORCE_UNCHANGED != replace.timeInForce() ? replace.timeInForce() :
                        null == timeInForce ? MatchingEngine.TIME_IN_FORCE_UNCHANGED : timeInForce;
                    if (null != timeInForce)
                    {
                        timesInForce.put(replaced.newOrderId(), newTimeInForce);
                    }
                    outcomes.add(kind + " " + replaced.display() + ": " + replaced.bookUpdate());
                    if (null != timeInForce && timeInForce != newTimeInForce)
                    {
                        timeInForceChanged.add(replaced.newOrderId());
                        outcomes.add(kind + ": " + replaced.bookUpdate() + " to another time in force" +
                            (newTimeInForce > 0 && newTimeInForce <= MatchingEngine.TIME_IN_FORCE_MAX_SECONDS ?
                                ", good-till-seconds" : ""));
                    }
                    if (replaced.price() != requestedPrice(command))
                    {
                        outcomes.add(kind + " " + replaced.display() + ": repriced");
                    }
                }
                case Executed execution ->
                {
                    outcomes.addAll(execution(kind, command, execution, ownOrderIds, displayedMakerPrices));
                }
                case Canceled cancel ->
                {
                    outcomes.add(kind + ": canceled " + cancel.reason());
                    outcomes.addAll(cancel(kind, command, cancel));
                    expired += ReasonCodes.CANCEL_TIMEOUT == cancel.reason() ? 1 : 0;
                }
                case PriorityUpdated update ->
                {
                    outcomes.addAll(priorityUpdate(kind, update, ownOrderIds, engine));
                }
                default ->
                {
                }
            }
        }
        if (expired > 1)
        {
            outcomes.add(kind + ": several expired");
        }
        if (command instanceof AdvanceClock clock && clock.nanos() < engine.clockNs())
        {
            outcomes.add(kind + ": earlier timestamp");
        }
        follow(command);
        return outcomes;
    }

    private Set<String> execution(
        final String kind, final EngineCommand command, final Executed execution, final Set<Long> ownOrderIds,
        final Set<Long> displayedMakerPrices)
    {
        final Set<String> outcomes = new HashSet<>();
        final Display maker = displays.get(execution.makerOrderId());
        final Display taker = displays.get(execution.takerOrderId());
        if (maker.isDisplayed())
        {
            displayedMakerPrices.add(execution.price());
        }
        if (Display.NON_DISPLAYED == maker && displayedMakerPrices.contains(execution.price()))
        {
            outcomes.add("hidden executed behind displayed");
        }
        outcomes.add(maker + " executed as maker");
        outcomes.add(taker + " executed as taker");
        if (!ownOrderIds.contains(execution.takerOrderId()))
        {
            outcomes.add(kind + ": peg sweep");
        }
        if (command instanceof NewOrder order && order.minimumQuantity() > 0 && Display.MIDPOINT_PEG == maker)
        {
            outcomes.add(kind + ": minimum quantity met against a peg");
        }
        final int firm = firms.get(execution.takerOrderId());
        if (0 != firm && firm == firms.get(execution.makerOrderId()) &&
            SelfTradePrevention.NONE == firmModes.get(firm) && SelfTradePrevention.NONE != defaultMode)
        {
            outcomes.add("self-trade allowed by firm mode NONE");
        }
        return outcomes;
    }

    /**
     * To the midpoint or to the limit (no midpoint, or one beyond the limit), for a peg the command entered or an
     * older one, and in which trading state.
     */
    private Set<String> priorityUpdate(
        final String kind, final PriorityUpdated update, final Set<Long> ownOrderIds, final MatchingEngine engine)
    {
        final Set<String> outcomes = new HashSet<>();
        final boolean toLimit = update.price() == limits.get(update.orderId());
        outcomes.add(kind + ": priority update");
        outcomes.add("priority update to the " + (toLimit ? "limit" : "midpoint"));
        outcomes.add("priority update of " + (ownOrderIds.contains(update.orderId()) ? "the command's" : "an older") +
            " peg");
        final TradingState state = engine.book(Symbols.pack(update.symbol())).tradingState();
        if (TradingState.OPEN != state)
        {
            outcomes.add(kind + ": priority update while " + state);
        }
        return outcomes;
    }

    private Set<String> cancel(final String kind, final EngineCommand command, final Canceled cancel)
    {
        final Set<String> outcomes = new HashSet<>();
        final Display display = displays.get(cancel.orderId());
        if (ReasonCodes.CANCEL_CLOSED == cancel.reason() || ReasonCodes.CANCEL_TIMEOUT == cancel.reason())
        {
            outcomes.add(kind + ": canceled " + cancel.reason() + " " + display);
        }
        if (ReasonCodes.CANCEL_TIMEOUT == cancel.reason() && timeInForceChanged.contains(cancel.orderId()))
        {
            outcomes.add(kind + ": canceled T after a new time in force");
        }
        if (ReasonCodes.CANCEL_SELF_MATCH_PREVENTION == cancel.reason())
        {
            final int firm = firms.get(cancel.orderId());
            final SelfTradePrevention firmMode = firmModes.get(firm);
            outcomes.add(kind + ": self-match " + (null == firmMode ? defaultMode : firmMode));
            if (null != firmMode)
            {
                outcomes.add("self-match by firm mode " + firmMode);
            }
            if (command instanceof NewOrder order && order.minimumQuantity() > 0)
            {
                outcomes.add(kind + ": minimum quantity with a self-match");
            }
            if (command instanceof AdvanceClock || command instanceof EngineCommand.Cancel ||
                command instanceof EngineCommand.SetTradingState)
            {
                outcomes.add("self-match in a peg sweep");
            }
        }
        return outcomes;
    }

    /**
     * The first event says how the command was handled, the last how its order ended; order priority updates, which
     * come after both, are left out.
     */
    private static String summary(
        final EngineCommand command, final List<Event> allEvents, final MatchingEngine engine)
    {
        final List<Event> events = allEvents.stream().filter((event) -> !(event instanceof PriorityUpdated)).toList();
        if (events.isEmpty())
        {
            return "nothing";
        }
        if (events.getFirst() instanceof Rejected rejected)
        {
            return "rejected " + rejected.reason() + priceRejectCause(command, rejected, engine);
        }
        final boolean traded = events.stream().anyMatch((e) -> e instanceof Executed);
        final Event last = events.getLast();
        final String end = last instanceof Canceled canceled ? "canceled " + canceled.reason() :
            last instanceof Rejected rejected ? "canceled, rejected " + rejected.reason() :
            last instanceof Added ? "rested" :
            last instanceof Replaced replaced ? replaced.bookUpdate().toString() : "filled";
        return (traded ? "traded, " : "") + end;
    }

    /** @return why a price was rejected although within (0, MAX_PRICE]: the band, or a post-only repricing. */
    private static String priceRejectCause(
        final EngineCommand command, final Rejected rejected, final MatchingEngine engine)
    {
        final long price = requestedPrice(command);
        if (ReasonCodes.REJECT_INVALID_PRICE != rejected.reason() || price <= 0 || price > MatchingEngine.MAX_PRICE)
        {
            return "";
        }
        final OrderBook book = engine.book(Symbols.pack(rejected.symbol()));
        return price < book.lowestPrice() || price > book.highestPrice() ? " in band" : " after repricing";
    }

    private static long requestedPrice(final EngineCommand command)
    {
        return switch (command)
        {
            case NewOrder order -> order.price();
            case Replace replace -> replace.price();
            case Move move -> move.price();
            default -> 0;
        };
    }

    private void follow(final EngineCommand command)
    {
        if (command instanceof SetSelfTradePrevention change)
        {
            defaultMode = change.mode();
        }
        if (command instanceof SetFirmSelfTradePrevention change)
        {
            if (null == change.mode())
            {
                firmModes.remove(change.firm());
            }
            else
            {
                firmModes.put(change.firm(), change.mode());
            }
        }
    }
}
