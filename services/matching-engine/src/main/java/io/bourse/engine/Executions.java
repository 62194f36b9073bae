package io.bourse.engine;

import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The shard's executions of the day, by match number, so that an operator can break one (engine-schema.xml
 * BreakTrade): symbol, shares, price (1/10000 dollars), both clientOrderIds and order reference numbers, and whether
 * it was broken. Kept in parallel primitive arrays indexed through a {@link Long2LongHashMap}, so recording a trade
 * allocates nothing; the arrays double only when full. The registry lives as long as the shard process, a trading day.
 * Used only by the engine agent thread.
 */
final class Executions
{
    /** Returned by {@link #find(long)} for a match number the shard never published. */
    static final int MISSING = -1;

    private final Long2LongHashMap indexByMatchNumber;
    private long[] matchNumbers;
    private long[] symbols;
    private long[] quantities;
    private long[] prices;
    private long[] takerClientOrderIds;
    private long[] makerClientOrderIds;
    private long[] takerOrderIds;
    private long[] makerOrderIds;
    private boolean[] broken;
    private int size;

    /**
     * @param initialCapacity executions held before the arrays first grow.
     */
    Executions(final int initialCapacity)
    {
        indexByMatchNumber = new Long2LongHashMap(initialCapacity * 2, Hashing.DEFAULT_LOAD_FACTOR, MISSING);
        matchNumbers = new long[initialCapacity];
        symbols = new long[initialCapacity];
        quantities = new long[initialCapacity];
        prices = new long[initialCapacity];
        takerClientOrderIds = new long[initialCapacity];
        makerClientOrderIds = new long[initialCapacity];
        takerOrderIds = new long[initialCapacity];
        makerOrderIds = new long[initialCapacity];
        broken = new boolean[initialCapacity];
    }

    /**
     * Records an execution (engine OrderExecuted).
     *
     * @param matchNumber        unique per day.
     * @param symbol             packed symbol.
     * @param quantity           shares.
     * @param price              1/10000 dollars.
     * @param takerClientOrderId the incoming order's clientOrderId.
     * @param takerOrderId       the incoming order's reference number.
     * @param makerClientOrderId the resting order's clientOrderId.
     * @param makerOrderId       the resting order's reference number.
     */
    void record(
        final long matchNumber, final long symbol, final long quantity, final long price,
        final long takerClientOrderId, final long takerOrderId, final long makerClientOrderId,
        final long makerOrderId)
    {
        if (size == symbols.length)
        {
            grow();
        }
        final int index = size++;
        matchNumbers[index] = matchNumber;
        symbols[index] = symbol;
        quantities[index] = quantity;
        prices[index] = price;
        takerClientOrderIds[index] = takerClientOrderId;
        makerClientOrderIds[index] = makerClientOrderId;
        takerOrderIds[index] = takerOrderId;
        makerOrderIds[index] = makerOrderId;
        broken[index] = false;
        indexByMatchNumber.put(matchNumber, index);
    }

    /**
     * @param matchNumber a match number.
     * @return the execution's index for the accessors, or {@link #MISSING}.
     */
    int find(final long matchNumber)
    {
        return (int)indexByMatchNumber.get(matchNumber);
    }

    long matchNumber(final int index)
    {
        return matchNumbers[index];
    }

    long symbol(final int index)
    {
        return symbols[index];
    }

    long quantity(final int index)
    {
        return quantities[index];
    }

    long price(final int index)
    {
        return prices[index];
    }

    long takerClientOrderId(final int index)
    {
        return takerClientOrderIds[index];
    }

    long makerClientOrderId(final int index)
    {
        return makerClientOrderIds[index];
    }

    long takerOrderId(final int index)
    {
        return takerOrderIds[index];
    }

    long makerOrderId(final int index)
    {
        return makerOrderIds[index];
    }

    boolean isBroken(final int index)
    {
        return broken[index];
    }

    /**
     * Marks an execution broken: a second break of it is refused.
     *
     * @param index from {@link #find(long)}.
     */
    void markBroken(final int index)
    {
        broken[index] = true;
    }

    private void grow()
    {
        final int capacity = symbols.length * 2;
        matchNumbers = Arrays.copyOf(matchNumbers, capacity);
        symbols = Arrays.copyOf(symbols, capacity);
        quantities = Arrays.copyOf(quantities, capacity);
        prices = Arrays.copyOf(prices, capacity);
        takerClientOrderIds = Arrays.copyOf(takerClientOrderIds, capacity);
        makerClientOrderIds = Arrays.copyOf(makerClientOrderIds, capacity);
        takerOrderIds = Arrays.copyOf(takerOrderIds, capacity);
        makerOrderIds = Arrays.copyOf(makerOrderIds, capacity);
        broken = Arrays.copyOf(broken, capacity);
    }
}
