package io.bourse.engine.match;

import io.bourse.common.config.Symbols;
import io.bourse.engine.match.ReferenceMatchingEngine.BookEntry;

import java.util.List;

/**
 * One command of a generated sequence, as a value whose {@code toString} reads like an order ticket, so that a shrunk
 * counterexample can be read at once. Prices in 1/10000 dollars, sizes in shares, ids are client order ids.
 */
sealed interface EngineCommand permits EngineCommand.NewOrder, EngineCommand.Cancel, EngineCommand.Replace,
    EngineCommand.Move, EngineCommand.SetTradingState, EngineCommand.SetPriceBand,
    EngineCommand.SetSelfTradePrevention
{
    /**
     * @param openOrders every resting order of every book, in one order both engines agree on.
     * @return the command with everything relative to the current book (the k-th open order, the same price) made
     * absolute, as it is sent to the engines.
     */
    default EngineCommand resolve(final List<BookEntry> openOrders)
    {
        return this;
    }

    /**
     * The order a cancel, replace or move names: the k-th open order (modulo their number), or a literal client order
     * id that may be unknown or closed.
     *
     * @param open  true for the k-th open order, false for a literal id.
     * @param value k, or the id.
     */
    record Target(boolean open, long value)
    {
        static Target id(final long clientOrderId)
        {
            return new Target(false, clientOrderId);
        }

        long clientOrderId(final List<BookEntry> openOrders)
        {
            return !open ? value : openOrders.isEmpty() ? value : openOrders.get((int)(value % openOrders.size()))
                .clientOrderId();
        }

        @Override

        public String toString()
        {
            return open ? "open order " + value : "#" + value;
        }
    }

    /**
     * @param entry the engine to send the command to.
     */
    void applyTo(OrderEntry entry);

    /** OUCH 4.2 Enter Order. */
    record NewOrder(long clientOrderId, String symbol, Side side, long quantity, long price, int timeInForce,
        long minimumQuantity, int firm) implements EngineCommand
    {
        @Override
        public void applyTo(final OrderEntry entry)
        {
            entry.newOrder(clientOrderId, Symbols.pack(symbol), side, quantity, price, timeInForce, minimumQuantity,
                firm);
        }

        @Override

        public String toString()
        {
            return "new #" + clientOrderId + " " + symbol + " " + side + " " + quantity + " @ " + price + " " +
                timeInForceName(timeInForce) + (0 == minimumQuantity ? "" : " min " + minimumQuantity) +
                (0 == firm ? "" : " firm " + firm);
        }

        private static String timeInForceName(final int timeInForce)
        {
            return switch (timeInForce)
            {
                case MatchingEngine.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL -> "IOC";
                case MatchingEngine.TIME_IN_FORCE_MARKET_HOURS -> "DAY";
                case MatchingEngine.TIME_IN_FORCE_SYSTEM_HOURS -> "SYSTEM-HOURS";
                default -> "TIF=" + timeInForce;
            };
        }
    }

    /** OUCH 4.2 Cancel Order: down to a new intended size, 0 for all. */
    record Cancel(Target target, long quantity) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders)
        {
            return new Cancel(Target.id(target.clientOrderId(openOrders)), quantity);
        }

        @Override

        public void applyTo(final OrderEntry entry)
        {
            entry.cancelOrder(target.value(), quantity);
        }

        @Override

        public String toString()
        {
            return "cancel " + target + " to " + quantity;
        }
    }

    /** OUCH 4.2 Replace Order; {@code atSamePrice} keeps the order's current price whatever {@code price} says. */
    record Replace(Target target, long newClientOrderId, long quantity, long price, boolean atSamePrice)
        implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders)
        {
            final long clientOrderId = target.clientOrderId(openOrders);
            long resolvedPrice = price;
            for (final BookEntry order : openOrders)
            {
                if (atSamePrice && order.clientOrderId() == clientOrderId)
                {
                    resolvedPrice = order.price();
                }
            }
            return new Replace(Target.id(clientOrderId), newClientOrderId, quantity, resolvedPrice, false);
        }

        @Override

        public void applyTo(final OrderEntry entry)
        {
            entry.replaceOrder(target.value(), newClientOrderId, quantity, price);
        }

        @Override

        public String toString()
        {
            return "replace " + target + " by #" + newClientOrderId + " " + quantity +
                (atSamePrice ? " @ same price" : " @ " + price);
        }
    }

    /** exchange-core MOVE: a new price, always losing priority. */
    record Move(Target target, long price) implements EngineCommand
    {
        @Override
        public EngineCommand resolve(final List<BookEntry> openOrders)
        {
            return new Move(Target.id(target.clientOrderId(openOrders)), price);
        }

        @Override

        public void applyTo(final OrderEntry entry)
        {
            entry.moveOrder(target.value(), price);
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
        public void applyTo(final OrderEntry entry)
        {
            entry.tradingState(Symbols.pack(symbol), state);
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
        public void applyTo(final OrderEntry entry)
        {
            entry.priceBand(Symbols.pack(symbol), referencePrice, bandBasisPoints);
        }

        @Override

        public String toString()
        {
            return 0 == referencePrice ? symbol + " no band" :
                symbol + " band " + referencePrice + " +- " + bandBasisPoints + " bp";
        }
    }

    /** The engine's self-trade prevention mode. */
    record SetSelfTradePrevention(SelfTradePrevention mode) implements EngineCommand
    {
        @Override
        public void applyTo(final OrderEntry entry)
        {
            entry.selfTradePrevention(mode);
        }

        @Override

        public String toString()
        {
            return "self-trade prevention " + mode;
        }
    }
}
