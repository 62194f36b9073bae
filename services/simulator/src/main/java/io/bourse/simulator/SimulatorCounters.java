package io.bourse.simulator;

import io.bourse.common.metrics.ErrorKinds;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters shared between the agent threads (each counter has a single writer) and the threads that read them
 * (progress, report, Prometheus scrapes): {@link SimulatorCounter} values, OUCH 4.2 Rejected counts by reason code,
 * and ITCH 5.0 message counts by message type. Writers use release stores, readers acquire loads; nothing allocates
 * on the write path. The errors are counted by kind apart, by any thread ({@link #errors()}).
 */
public final class SimulatorCounters
{
    /** ITCH 5.0 message types counted one by one ({@link #mdMessages}): every 7-bit ASCII code. */
    public static final int MESSAGE_TYPES = 128;
    private static final int CODES = MESSAGE_TYPES;
    private static final int REJECT_BASE = SimulatorCounter.values().length;
    private static final int MD_TYPE_BASE = REJECT_BASE + CODES;

    private final AtomicLongArray values = new AtomicLongArray(MD_TYPE_BASE + CODES);
    private final ErrorKinds<SimulatorError> errors = new ErrorKinds<>("simulator", SimulatorError.class);

    /**
     * @return the simulator's errors by kind, each logged the first time (the lost sessions, which their agents log
     * every time, are only counted here); safe from any thread.
     */
    public ErrorKinds<SimulatorError> errors()
    {
        return errors;
    }

    /**
     * Adds to a counter; call only from the counter's writer thread.
     *
     * @param counter the counter.
     * @param delta   amount to add.
     */
    public void add(final SimulatorCounter counter, final long delta)
    {
        addAt(counter.ordinal(), delta);
    }

    /**
     * Adds one to a counter; call only from the counter's writer thread.
     *
     * @param counter the counter.
     */
    public void increment(final SimulatorCounter counter)
    {
        addAt(counter.ordinal(), 1);
    }

    /**
     * Counts one OUCH 4.2 Rejected message; call only from the order-entry thread.
     *
     * @param reason the Reject Reason code (ASCII).
     */
    public void onRejected(final byte reason)
    {
        addAt(SimulatorCounter.REJECTED.ordinal(), 1);
        addAt(REJECT_BASE + (reason & (CODES - 1)), 1);
    }

    /**
     * Counts one ITCH 5.0 message; call only from the market-data thread.
     *
     * @param messageType the Message Type (ASCII).
     */
    public void onMarketData(final byte messageType)
    {
        addAt(SimulatorCounter.MD_MESSAGES.ordinal(), 1);
        addAt(MD_TYPE_BASE + (messageType & (CODES - 1)), 1);
    }

    /**
     * @param counter the counter.
     * @return its current value.
     */
    public long get(final SimulatorCounter counter)
    {
        return values.get(counter.ordinal());
    }

    /** @return Rejected counts by reason code, only the codes seen (allocates; not for hot paths). */
    public Map<Character, Long> rejectsByReason()
    {
        return nonZero(REJECT_BASE);
    }

    /** @return ITCH 5.0 message counts by message type, only the types seen (allocates; not for hot paths). */
    public Map<Character, Long> mdMessagesByType()
    {
        return nonZero(MD_TYPE_BASE);
    }

    /**
     * @param messageType an ITCH 5.0 Message Type, below {@link #MESSAGE_TYPES}.
     * @return market-data messages of that type received.
     */
    public long mdMessages(final byte messageType)
    {
        return values.get(MD_TYPE_BASE + (messageType & (CODES - 1)));
    }

    /** @return orders sent of every kind: Enter (day and IOC), Cancel and Replace. */
    public long ordersSent()
    {
        return get(SimulatorCounter.DAY_SENT) + get(SimulatorCounter.IOC_SENT) + get(SimulatorCounter.CANCEL_SENT) +
            get(SimulatorCounter.REPLACE_SENT);
    }

    private void addAt(final int index, final long delta)
    {
        values.setRelease(index, values.getPlain(index) + delta);
    }

    private Map<Character, Long> nonZero(final int base)
    {
        final Map<Character, Long> result = new TreeMap<>();
        for (int code = 0; code < CODES; code++)
        {
            final long value = values.get(base + code);
            if (value != 0)
            {
                result.put((char)code, value);
            }
        }
        return Collections.unmodifiableMap(result);
    }
}
