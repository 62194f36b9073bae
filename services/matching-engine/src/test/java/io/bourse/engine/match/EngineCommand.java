package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.ReferenceMatchingEngine.BookEntry;

import java.util.Comparator;
import java.util.List;

/**
 * One command of a generated sequence, as a value whose {@code toString} reads like an order ticket, so that a shrunk
 * counterexample can be read at once. Prices in 1/10000 dollars, sizes in shares, ids are client order ids.
 */
sealed interface EngineCommand permits EngineCommand.AdvanceClock, EngineCommand.NewOrder, EngineCommand.Cancel,
    EngineCommand.Replace, EngineCommand.Move, EngineCommand.SetTradingState, EngineCommand.SetPriceBand,
    EngineCommand.SetSelfTradePrevention, EngineCommand.SetFirmSelfTradePrevention
{
    /**
     * @param openOrders every resting order of every book, in one order both engines agree on.
     * @param clockNs    the engine's clock in ns since midnight.
     * @return the command with everything relative to the current state (the k-th open order, the same price, a
     * smaller size, a later time) made absolute, as it is sent to the engines.
     */
    default EngineCommand resolve(final List<BookEntry> openOrders, final long clockNs)
    {
        return this;
    }

    /**
     * The order a cancel, replace or move names: the k-th open order (modulo their number), the best displayed order
     * of a side (the first at the highest bid or lowest offer of any symbol; k even for a bid, odd for an offer), or
     * a literal client order id that may be unknown or closed.
     *
     * @param kind  how {@code value} names the order.
     * @param value k, or the id.
     */
    record Target(TargetKind kind, long value)
    {
        static Target id(final long clientOrderId)
        {
            return new Target(TargetKind.ID, clientOrderId);
        }

        long clientOrderId(final List<BookEntry> openOrders)
        {
            if (openOrders.isEmpty() || TargetKind.ID == kind)
            {
                return value;
            }
            if (TargetKind.OPEN == kind)
            {
                return openOrders.get((int)(value % openOrders.size())).clientOrderId();
            }
            final Side side = 0 == value % 2 ? Side.BUY : Side.SELL;
            return openOrders.stream()
                .filter((order) -> order.side() == side && order.display().isDisplayed())
                .min(Comparator.comparingLong((BookEntry order) -> Side.BUY == side ? -order.price() : order.price())
                    .thenComparingLong(BookEntry::orderId))
                .map(BookEntry::clientOrderId).orElse(value);
        }

        @Override
        public String toString()
        {
            return switch (kind)
            {
                case OPEN -> "open order " + value;
                case BEST -> "best displayed " + (0 == value % 2 ? "bid" : "offer");
                case ID -> "#" + value;
            };
        }
    }

    /** How a {@link Target} names its order. */
    enum TargetKind
    {
        /** The k-th open order by client order id. */
        OPEN,
        /** The best displayed bid (k even) or offer (k odd). */
        BEST,
        /** A literal client order id. */
        ID
    }

    /**
     * @param entry the engine to send the command to.
     * @return what the engine answered: false for a trading state or price band it refused, true otherwise.
     */
    boolean applyTo(OrderEntry entry);

    /**
     * The sequenced input's clock: a timestamp {@code nanos} after the engine's clock ({@code relative}; negative
     * for a gateway whose clock lags), or at {@code nanos} since midnight.
     */
    record AdvanceClock(long nanos, boolean relative) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders, final long clockNs)
        {
            return relative ? new AdvanceClock(clockNs + nanos, false) : this;
        }

        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.advanceClock(nanos);
            return true;
        }

        @Override
        public String toString()
        {
            return "clock " + (relative ? (nanos < 0 ? "" : "+") : "to ") + nanos / 1e9 + " s";
        }
    }

    /** OUCH 4.2 Enter Order; a null display stands for a Display value Bourse does not support. */
    record NewOrder(long clientOrderId, String symbol, Side side, long quantity, long price, int timeInForce,
        long minimumQuantity, int firm, Display display) implements EngineCommand
    {
        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.newOrder(clientOrderId, Symbols.pack(symbol), side, quantity, price, timeInForce, minimumQuantity,
                firm, display);
            return true;
        }

        @Override
        public String toString()
        {
            return "new #" + clientOrderId + " " + symbol + " " + side + " " + quantity + " @ " + price + " " +
                timeInForceName(timeInForce) + (0 == minimumQuantity ? "" : " min " + minimumQuantity) +
                (0 == firm ? "" : " firm " + firm) + (Display.ANONYMOUS == display ? "" : " " + displayName(display));
        }

        private static String timeInForceName(final int timeInForce)
        {
            return switch (timeInForce)
            {
                case MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL -> "IOC";
                case MatchingEngine.TIME_IN_FORCE_MARKET_HOURS -> "DAY";
                case MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS -> "SYSTEM-HOURS";
                default -> "TIF=" + timeInForce + "s";
            };
        }

        private static String displayName(final Display display)
        {
            return null == display ? "unsupported-display" : switch (display)
            {
                case ATTRIBUTABLE -> "attributable";
                case ANONYMOUS -> "anonymous";
                case NON_DISPLAYED -> "hidden";
                case POST_ONLY -> "post-only";
                case MIDPOINT_PEG -> "midpoint-peg";
            };
        }
    }

    /** OUCH 4.2 Cancel Order: down to a new intended size, 0 for all. */
    record Cancel(Target target, long quantity) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders, final long clockNs)
        {
            return new Cancel(Target.id(target.clientOrderId(openOrders)), quantity);
        }

        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.cancelOrder(target.value(), quantity);
            return true;
        }

        @Override
        public String toString()
        {
            return "cancel " + target + " to " + quantity;
        }
    }

    /**
     * OUCH 4.2 Replace Order, whose size counts the shares the order/replace chain executed; {@code atSamePrice} keeps
     * the order's current price whatever {@code price} says, and {@code smaller} turns {@code quantity} into an open
     * size from 1 to the order's (resolved against the open orders), sent as that plus the chain's executed shares
     * (asked of the engine or model it is applied to, so that both must agree on them); {@code timeInForce} is the
     * replacement's, or {@link MatchingEngine#TIME_IN_FORCE_UNCHANGED}.
     */
    record Replace(Target target, long newClientOrderId, long quantity, long price, boolean atSamePrice,
        boolean smaller, int timeInForce) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders, final long clockNs)
        {
            final long clientOrderId = target.clientOrderId(openOrders);
            long resolvedPrice = price;
            long resolvedQuantity = quantity;
            for (final BookEntry order : openOrders)
            {
                if (order.clientOrderId() == clientOrderId)
                {
                    resolvedPrice = atSamePrice ? order.price() : price;
                    resolvedQuantity = smaller ? 1 + Math.floorMod(quantity - 1, order.remaining()) : quantity;
                }
            }
            return new Replace(Target.id(clientOrderId), newClientOrderId, resolvedQuantity, resolvedPrice, false,
                smaller, timeInForce);
        }

        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            final long shares = smaller ? entry.executedQuantity(target.value()) + quantity : quantity;
            entry.replaceOrder(target.value(), newClientOrderId, shares, price, timeInForce);
            return true;
        }

        @Override
        public String toString()
        {
            return "replace " + target + " by #" + newClientOrderId + " " + (smaller ? "executed + open " : "") +
                quantity + (atSamePrice ? " @ same price" : " @ " + price) +
                (MatchingEngine.TIME_IN_FORCE_UNCHANGED == timeInForce ? "" : " tif " + timeInForce);
        }
    }

    /** exchange-core MOVE: a new price, always losing priority. */
    record Move(Target target, long price) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders, final long clockNs)
        {
            return new Move(Target.id(target.clientOrderId(openOrders)), price);
        }

        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.moveOrder(target.value(), price);
            return true;
        }

        @Override
        public String toString()
        {
            return "move " + target + " to " + price;
        }
    }

    /** A symbol's trading state. */
    record SetTradingState(String symbol, TradingState state) implements EngineCommand
    {
        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            return entry.tradingState(Symbols.pack(symbol), state);
        }

        @Override
        public String toString()
        {
            return symbol + " " + state;
        }
    }

    /** A symbol's price band; a reference price of 0 removes it. */
    record SetPriceBand(String symbol, long referencePrice, int bandBasisPoints) implements EngineCommand
    {
        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            return entry.priceBand(Symbols.pack(symbol), referencePrice, bandBasisPoints);
        }

        @Override
        public String toString()
        {
            return 0 == referencePrice ? symbol + " no band" :
                symbol + " band " + referencePrice + " +- " + bandBasisPoints + " bp";
        }
    }

    /** The self-trade prevention mode of firms without a mode of their own. */
    record SetSelfTradePrevention(SelfTradePrevention mode) implements EngineCommand
    {
        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.selfTradePrevention(mode);
            return true;
        }

        @Override
        public String toString()
        {
            return "self-trade prevention " + mode;
        }
    }

    /** One firm's self-trade prevention mode; null falls back to the engine's. */
    record SetFirmSelfTradePrevention(int firm, SelfTradePrevention mode) implements EngineCommand
    {
        @Override
        public boolean applyTo(final OrderEntry entry)
        {
            entry.selfTradePrevention(firm, mode);
            return true;
        }

        @Override
        public String toString()
        {
            return "firm " + firm + " self-trade prevention " + (null == mode ? "default" : mode);
        }
    }
}
