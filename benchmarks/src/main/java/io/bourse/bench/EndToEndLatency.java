package io.bourse.bench;

import com.paritytrading.nassau.MessageListener;
import io.bourse.simulator.InFlightOrders;
import org.agrona.collections.Long2LongHashMap;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The end-to-end latency of {@code bourse bench e2e}: from an OUCH 4.2 Enter Order's intended send time to the read
 * that brought the ITCH 5.0 message showing that order to a fanout subscriber. The benchmark's orders come in pairs
 * that cross (see {@link OuchOrderConnection}): the order that reaches the engine first rests and shows as an Add
 * Order ({@code A}, keyed by its Order Reference Number, which the OUCH Accepted carries too); the other takes it and
 * shows as an Order Executed ({@code E}, keyed by its Match Number, which the OUCH Executed with liquidity flag
 * {@code R} carries too). Whichever of the OUCH answer and the ITCH message is read first waits in a map for the
 * other. Coordinated-omission corrected like the round trip; warm-up orders are counted, not recorded
 * ({@link RoundTripRecorder}). Single thread: the client's.
 */
final class EndToEndLatency implements OpenLoopClient.Feed, MessageListener
{
    /** ITCH 5.0 §4.3.1 Add Order and §4.4.1 Order Executed: Order Reference Number, 8 bytes. */
    private static final int ORDER_REFERENCE_OFFSET = 11;
    /** ITCH 5.0 §4.4.1 Order Executed: Match Number, 8 bytes, after Executed Shares. */
    private static final int MATCH_NUMBER_OFFSET = 23;
    private static final int ADD_ORDER_LENGTH = 36;
    private static final int ORDER_EXECUTED_LENGTH = 31;
    private static final long MISSING = Long.MIN_VALUE;
    /** Accepted orders a session remembers the reference number of, until an Executed that removed liquidity. */
    private static final int REFERENCES_PER_SESSION = 2 * RoundTripConnection.MAX_IN_FLIGHT;

    private final Long2LongHashMap addAwaited = new Long2LongHashMap(MISSING);
    private final Long2LongHashMap executionAwaited = new Long2LongHashMap(MISSING);
    private final Long2LongHashMap addRead = new Long2LongHashMap(MISSING);
    private final Long2LongHashMap executionRead = new Long2LongHashMap(MISSING);
    private ItchSubscriber subscriber;
    private RoundTripRecorder recorder = new RoundTripRecorder(0);
    private long measureStartNs;
    private long receivedNs;

    /**
     * @param subscriber the fanout subscriber whose observer this is, logged in.
     */
    void subscriber(final ItchSubscriber subscriber)
    {
        this.subscriber = subscriber;
    }

    /** @return the answers of one OUCH session, to hand to its {@link OuchOrderConnection}. */
    OuchOrderConnection.OrderEvents session()
    {
        return new SessionEvents();
    }

    @Override
    public void startStep(final long measureStartNs)
    {
        this.measureStartNs = measureStartNs;
        recorder = new RoundTripRecorder(measureStartNs);
        addRead.clear();
        executionRead.clear();
    }

    /**
     * Sets the receipt time of the messages the next read brings; {@link #poll()} does it before each read.
     *
     * @param receivedNs {@link System#nanoTime()} scale.
     */
    void receivedNs(final long receivedNs)
    {
        this.receivedNs = receivedNs;
    }

    @Override
    public int poll() throws IOException
    {
        receivedNs(System.nanoTime());
        final int bytes = subscriber.receive();
        if (bytes < 0)
        {
            throw new EOFException("ITCH subscriber: closed by the fanout");
        }
        subscriber.keepAlive();
        return bytes;
    }

    /** @return orders accepted whose market data has not been read yet. */
    @Override
    public long unsettled()
    {
        return addAwaited.size() + executionAwaited.size();
    }

    /** @return start of the step's measured window, {@link System#nanoTime()} scale. */
    long measureStartNs()
    {
        return measureStartNs;
    }

    /** @return the step's measured end-to-end latencies and its last receipt. */
    RoundTripRecorder recorder()
    {
        return recorder;
    }

    /** SoupBinTCP 4.0 Sequenced Data: one ITCH 5.0 message; the position is left as it is. */
    @Override
    public void message(final ByteBuffer payload)
    {
        final int position = payload.position();
        final int length = payload.remaining();
        final byte type = length > 0 ? payload.get(position) : 0;
        if (('A' == type || 'F' == type) && length >= ADD_ORDER_LENGTH)
        {
            final long reference = payload.getLong(position + ORDER_REFERENCE_OFFSET);
            final long intendedNs = addAwaited.remove(reference);
            if (MISSING != intendedNs)
            {
                recorder.record(intendedNs, receivedNs);
            }
            else
            {
                addRead.put(reference, receivedNs);
            }
        }
        else if ('E' == type && length >= ORDER_EXECUTED_LENGTH)
        {
            final long matchNumber = payload.getLong(position + MATCH_NUMBER_OFFSET);
            final long intendedNs = executionAwaited.remove(matchNumber);
            if (MISSING != intendedNs)
            {
                recorder.record(intendedNs, receivedNs);
            }
            else
            {
                executionRead.put(matchNumber, receivedNs);
            }
        }
    }

    /** One session's answers; remembers each accepted order's reference number by its counter. */
    private final class SessionEvents implements OuchOrderConnection.OrderEvents
    {
        private final long[] counters = new long[REFERENCES_PER_SESSION];
        private final long[] references = new long[REFERENCES_PER_SESSION];

        @Override
        public void onAccepted(final long counter, final long orderReferenceNumber, final long intendedNs)
        {
            if (InFlightOrders.NOT_IN_FLIGHT == intendedNs)
            {
                return;
            }
            final int slot = (int)(counter & (REFERENCES_PER_SESSION - 1));
            counters[slot] = counter;
            references[slot] = orderReferenceNumber;
            final long addReadNs = addRead.remove(orderReferenceNumber);
            if (MISSING != addReadNs)
            {
                recorder.record(intendedNs, addReadNs);
            }
            else
            {
                addAwaited.put(orderReferenceNumber, intendedNs);
            }
        }

        /** An order that removed liquidity never shows as an Add Order: it waits for its Order Executed instead. */
        @Override
        public void onExecuted(final long counter, final byte liquidityFlag, final long matchNumber)
        {
            final int slot = (int)(counter & (REFERENCES_PER_SESSION - 1));
            if ('R' != liquidityFlag || counters[slot] != counter)
            {
                return;
            }
            final long intendedNs = addAwaited.remove(references[slot]);
            if (MISSING == intendedNs)
            {
                return;
            }
            final long executionReadNs = executionRead.remove(matchNumber);
            if (MISSING != executionReadNs)
            {
                recorder.record(intendedNs, executionReadNs);
            }
            else
            {
                executionAwaited.put(matchNumber, intendedNs);
            }
        }
    }
}
