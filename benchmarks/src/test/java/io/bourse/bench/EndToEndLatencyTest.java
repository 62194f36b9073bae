package io.bourse.bench;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/** How OUCH answers and ITCH messages, read in either order, make one end-to-end latency per order. */
class EndToEndLatencyTest
{
    private static final long MEASURE_START_NS = 1_000;
    private static final byte ADDED = 'A';
    private static final byte REMOVED = 'R';

    private final EndToEndLatency latency = new EndToEndLatency();
    private final OuchOrderConnection.OrderEvents buyer = latency.session();
    private final OuchOrderConnection.OrderEvents seller = latency.session();

    @Test
    void shouldMeasureTheRestingOrderToItsAddOrderAndTheTakerToTheExecutionWhenOuchAnswersComeFirst()
    {
        latency.startStep(MEASURE_START_NS);

        buyer.onAccepted(1, 501, 2_000);
        seller.onAccepted(1, 502, 2_100);
        buyer.onExecuted(1, ADDED, 9_001);
        seller.onExecuted(1, REMOVED, 9_001);
        assertThat(latency.unsettled()).isEqualTo(2);
        read(addOrder(501), 2_500);
        read(orderExecuted(501, 9_001), 2_900);

        assertThat(latency.unsettled()).isZero();
        assertThat(latency.recorder().histogram().getTotalCount()).isEqualTo(2);
        assertThat(latency.recorder().histogram().getMinValue()).isEqualTo(500);
        assertThat(latency.recorder().histogram().getMaxValue()).isEqualTo(800);
    }

    @Test
    void shouldMeasureBothOrdersWhenTheItchMessagesAreReadBeforeTheOuchAnswers()
    {
        latency.startStep(MEASURE_START_NS);

        read(addOrder(601), 3_000);
        read(orderExecuted(601, 9_002), 3_400);
        buyer.onAccepted(2, 601, 2_000);
        seller.onAccepted(2, 602, 2_200);
        seller.onExecuted(2, REMOVED, 9_002);
        buyer.onExecuted(2, ADDED, 9_002);

        assertThat(latency.unsettled()).isZero();
        assertThat(latency.recorder().histogram().getTotalCount()).isEqualTo(2);
        assertThat(latency.recorder().histogram().getMinValue()).isEqualTo(1_000);
        assertThat(latency.recorder().histogram().getMaxValue()).isEqualTo(1_200);
    }

    @Test
    void shouldCountButNotRecordOrdersIntendedBeforeTheMeasuredWindow()
    {
        latency.startStep(MEASURE_START_NS);

        buyer.onAccepted(3, 701, 500);
        read(addOrder(701), 900);

        assertThat(latency.unsettled()).isZero();
        assertThat(latency.recorder().histogram().getTotalCount()).isZero();
        assertThat(latency.recorder().warmupAnswers()).isEqualTo(1);
    }

    @Test
    void shouldKeepWaitingWhileAnAcceptedOrderHasShownNowhereInTheFeed()
    {
        latency.startStep(MEASURE_START_NS);

        buyer.onAccepted(4, 801, 2_000);
        read(addOrder(999), 2_500);

        assertThat(latency.unsettled()).isEqualTo(1);
        assertThat(latency.recorder().histogram().getTotalCount()).isZero();
    }

    private void read(final ByteBuffer message, final long receivedNs)
    {
        latency.receivedNs(receivedNs);
        latency.message(message);
        assertThat(message.position()).isZero();
    }

    /** ITCH 5.0 §4.3.1 Add Order, 36 bytes: only the type and the Order Reference Number matter here. */
    private static ByteBuffer addOrder(final long orderReferenceNumber)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(36);
        buffer.put(0, (byte)'A').putLong(11, orderReferenceNumber).put(19, (byte)'B').putInt(20, 100);
        return buffer;
    }

    /** ITCH 5.0 §4.4.1 Order Executed, 31 bytes. */
    private static ByteBuffer orderExecuted(final long orderReferenceNumber, final long matchNumber)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(31);
        buffer.put(0, (byte)'E').putLong(11, orderReferenceNumber).putInt(19, 100).putLong(23, matchNumber);
        return buffer;
    }
}
