package io.bourse.ouch;

import io.bourse.common.config.Symbols;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class OutboundMessagesTest
{
    private static final int OFFSET = 5;
    private static final long TIMESTAMP_NS = 34_200_000_000_123L;

    private static UnsafeBuffer at(final byte[] message)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + message.length + 7]);
        buffer.putBytes(OFFSET, message);
        return buffer;
    }

    private static UnsafeBuffer empty(final int length)
    {
        return new UnsafeBuffer(new byte[OFFSET + length]);
    }

    private static byte[] written(final UnsafeBuffer buffer, final int length)
    {
        return Arrays.copyOfRange(buffer.byteArray(), OFFSET, OFFSET + length);
    }

    @Nested
    class SystemEventTest
    {
        private final byte[] spec = new SpecBytes().alpha('S').integer8(TIMESTAMP_NS).alpha('S').toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(SystemEvent.LENGTH);
            assertThat(SystemEvent.LENGTH).isEqualTo(10);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final SystemEvent message = new SystemEvent().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(SystemEvent.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.eventCode()).isEqualTo(Ouch42.EVENT_START_OF_DAY);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(SystemEvent.LENGTH);
            new SystemEvent().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .eventCode(Ouch42.EVENT_START_OF_DAY);

            assertThat(written(buffer, SystemEvent.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class OrderAcceptedTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('A')
            .integer8(TIMESTAMP_NS)
            .alpha("T1", 14)
            .alpha('S')
            .integer4(500)
            .alpha("MSFT", 8)
            .integer4(4_123_400)
            .integer4(99_999)
            .alpha("DEMO", 4)
            .alpha('Y')
            .integer8(0x0102_0304_0506_0708L)
            .alpha('P')
            .alpha('N')
            .integer4(0)
            .alpha('N')
            .alpha('L')
            .alpha(' ')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderAccepted.LENGTH);
            assertThat(OrderAccepted.LENGTH).isEqualTo(66);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderAccepted message = new OrderAccepted().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(OrderAccepted.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("T1");
            assertThat(message.buySellIndicator()).isEqualTo(Ouch42.SIDE_SELL);
            assertThat(message.shares()).isEqualTo(500);
            assertThat(Symbols.toString(message.stock())).isEqualTo("MSFT");
            assertThat(message.price()).isEqualTo(4_123_400);
            assertThat(message.timeInForce()).isEqualTo(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS);
            assertThat(message.firmAsString()).isEqualTo("DEMO");
            assertThat(message.display()).isEqualTo(Ouch42.DISPLAY_ANONYMOUS);
            assertThat(message.orderReferenceNumber()).isEqualTo(0x0102_0304_0506_0708L);
            assertThat(message.capacity()).isEqualTo(Ouch42.CAPACITY_PRINCIPAL);
            assertThat(message.intermarketSweepEligibility()).isEqualTo(Ouch42.ISE_NOT_ELIGIBLE);
            assertThat(message.minimumQuantity()).isZero();
            assertThat(message.crossType()).isEqualTo(Ouch42.CROSS_TYPE_NO_CROSS);
            assertThat(message.orderState()).isEqualTo(Ouch42.ORDER_STATE_LIVE);
            assertThat(message.bboWeightIndicator()).isEqualTo(Ouch42.BBO_WEIGHT_UNSPECIFIED);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderAccepted.LENGTH);
            new OrderAccepted().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("T1")
                .buySellIndicator(Ouch42.SIDE_SELL)
                .shares(500)
                .stock(Symbols.pack("MSFT"))
                .price(4_123_400)
                .timeInForce(Ouch42.TIME_IN_FORCE_SYSTEM_HOURS)
                .firm("DEMO")
                .display(Ouch42.DISPLAY_ANONYMOUS)
                .orderReferenceNumber(0x0102_0304_0506_0708L)
                .capacity(Ouch42.CAPACITY_PRINCIPAL)
                .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
                .minimumQuantity(0)
                .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
                .orderState(Ouch42.ORDER_STATE_LIVE)
                .bboWeightIndicator(Ouch42.BBO_WEIGHT_UNSPECIFIED);

            assertThat(written(buffer, OrderAccepted.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class OrderReplacedTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('U')
            .integer8(TIMESTAMP_NS)
            .alpha("NEW", 14)
            .alpha('T')
            .integer4(75)
            .alpha("GOOG", 8)
            .integer4(1_000_000)
            .integer4(0)
            .alpha("FIRM", 4)
            .alpha('P')
            .integer8(42)
            .alpha('R')
            .alpha('N')
            .integer4(10)
            .alpha('N')
            .alpha('D')
            .alpha("OLD", 14)
            .alpha('1')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderReplaced.LENGTH);
            assertThat(OrderReplaced.LENGTH).isEqualTo(80);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderReplaced message = new OrderReplaced().wrap(at(spec), OFFSET);
            final byte[] previous = new byte[Ouch42.TOKEN_LENGTH];
            message.getPreviousOrderToken(previous);

            assertThat(message.messageType()).isEqualTo(OrderReplaced.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.replacementOrderTokenAsString()).isEqualTo("NEW");
            assertThat(message.buySellIndicator()).isEqualTo(Ouch42.SIDE_SELL_SHORT);
            assertThat(message.shares()).isEqualTo(75);
            assertThat(message.stock()).isEqualTo(Symbols.pack("GOOG"));
            assertThat(message.price()).isEqualTo(1_000_000);
            assertThat(message.timeInForce()).isZero();
            assertThat(message.firmAsString()).isEqualTo("FIRM");
            assertThat(message.display()).isEqualTo(Ouch42.DISPLAY_POST_ONLY);
            assertThat(message.orderReferenceNumber()).isEqualTo(42);
            assertThat(message.capacity()).isEqualTo(Ouch42.CAPACITY_RISKLESS);
            assertThat(message.intermarketSweepEligibility()).isEqualTo(Ouch42.ISE_NOT_ELIGIBLE);
            assertThat(message.minimumQuantity()).isEqualTo(10);
            assertThat(message.crossType()).isEqualTo(Ouch42.CROSS_TYPE_NO_CROSS);
            assertThat(message.orderState()).isEqualTo(Ouch42.ORDER_STATE_DEAD);
            assertThat(message.previousOrderTokenAsString()).isEqualTo("OLD");
            assertThat(previous).isEqualTo("OLD           ".getBytes());
            assertThat(message.bboWeightIndicator()).isEqualTo((byte)'1');
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderReplaced.LENGTH);
            new OrderReplaced().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .replacementOrderToken("NEW")
                .buySellIndicator(Ouch42.SIDE_SELL_SHORT)
                .shares(75)
                .stock(Symbols.pack("GOOG"))
                .price(1_000_000)
                .timeInForce(0)
                .firm("FIRM")
                .display(Ouch42.DISPLAY_POST_ONLY)
                .orderReferenceNumber(42)
                .capacity(Ouch42.CAPACITY_RISKLESS)
                .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
                .minimumQuantity(10)
                .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
                .orderState(Ouch42.ORDER_STATE_DEAD)
                .previousOrderToken("OLD")
                .bboWeightIndicator((byte)'1');

            assertThat(written(buffer, OrderReplaced.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class OrderCanceledTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('C')
            .integer8(TIMESTAMP_NS)
            .alpha("CXL-1", 14)
            .integer4(300)
            .alpha('U')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderCanceled.LENGTH);
            assertThat(OrderCanceled.LENGTH).isEqualTo(28);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderCanceled message = new OrderCanceled().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(OrderCanceled.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("CXL-1");
            assertThat(message.decrementShares()).isEqualTo(300);
            assertThat(message.reason()).isEqualTo(Ouch42.CANCEL_USER_REQUESTED);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderCanceled.LENGTH);
            new OrderCanceled().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("CXL-1")
                .decrementShares(300)
                .reason(Ouch42.CANCEL_USER_REQUESTED);

            assertThat(written(buffer, OrderCanceled.LENGTH)).isEqualTo(spec);
        }

        @Test
        void shouldMatchSpecCodesWhenListingReasons()
        {
            final byte[] reasons = {
                Ouch42.CANCEL_USER_REQUESTED,
                Ouch42.CANCEL_IMMEDIATE_OR_CANCEL,
                Ouch42.CANCEL_TIMEOUT,
                Ouch42.CANCEL_SUPERVISORY,
                Ouch42.CANCEL_REGULATORY_RESTRICTION,
                Ouch42.CANCEL_SELF_MATCH_PREVENTION,
                Ouch42.CANCEL_SYSTEM,
                Ouch42.CANCEL_CROSS,
                Ouch42.CANCEL_CLOSED,
                Ouch42.CANCEL_MARKET_COLLARS,
                Ouch42.CANCEL_HALTED,
                Ouch42.CANCEL_OPEN_PROTECTION};

            assertThat(new String(reasons, StandardCharsets.US_ASCII)).isEqualTo("UITSDQZCEKHX");
        }
    }

    @Nested
    class OrderExecutedTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('E')
            .integer8(TIMESTAMP_NS)
            .alpha("EXEC-00000001", 14)
            .integer4(100)
            .integer4(1_500_000)
            .alpha('R')
            .integer8(987_654_321L)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderExecuted.LENGTH);
            assertThat(OrderExecuted.LENGTH).isEqualTo(40);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderExecuted message = new OrderExecuted().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(OrderExecuted.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("EXEC-00000001");
            assertThat(message.executedShares()).isEqualTo(100);
            assertThat(message.executionPrice()).isEqualTo(1_500_000);
            assertThat(message.liquidityFlag()).isEqualTo(Ouch42.LIQUIDITY_REMOVED);
            assertThat(message.matchNumber()).isEqualTo(987_654_321L);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderExecuted.LENGTH);
            new OrderExecuted().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("EXEC-00000001")
                .executedShares(100)
                .executionPrice(1_500_000)
                .liquidityFlag(Ouch42.LIQUIDITY_REMOVED)
                .matchNumber(987_654_321L);

            assertThat(written(buffer, OrderExecuted.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class OrderRejectedTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('J')
            .integer8(TIMESTAMP_NS)
            .alpha("REJ", 14)
            .alpha('S')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderRejected.LENGTH);
            assertThat(OrderRejected.LENGTH).isEqualTo(24);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderRejected message = new OrderRejected().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(OrderRejected.TYPE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("REJ");
            assertThat(message.reason()).isEqualTo(Ouch42.REJECT_INVALID_STOCK);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderRejected.LENGTH);
            new OrderRejected().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("REJ")
                .reason(Ouch42.REJECT_INVALID_STOCK);

            assertThat(written(buffer, OrderRejected.LENGTH)).isEqualTo(spec);
        }

        @Test
        void shouldMatchSpecCodesWhenListingReasons()
        {
            final byte[] reasons = {
                Ouch42.REJECT_TEST_MODE,
                Ouch42.REJECT_HALTED,
                Ouch42.REJECT_SHARES_EXCEED_THRESHOLD,
                Ouch42.REJECT_INVALID_STOCK,
                Ouch42.REJECT_INVALID_DISPLAY_TYPE,
                Ouch42.REJECT_CLOSED,
                Ouch42.REJECT_FIRM_NOT_AUTHORIZED,
                Ouch42.REJECT_OUTSIDE_PERMITTED_TIMES,
                Ouch42.REJECT_NOT_ALLOWED_IN_CROSS,
                Ouch42.REJECT_INVALID_PRICE,
                Ouch42.REJECT_INVALID_MINIMUM_QUANTITY,
                Ouch42.REJECT_OTHER,
                Ouch42.REJECT_INVALID_MID_POINT_POST_ONLY_PRICE,
                Ouch42.REJECT_ALL_ENABLED,
                Ouch42.REJECT_EASY_TO_BORROW,
                Ouch42.REJECT_RESTRICTED_SYMBOL,
                Ouch42.REJECT_ISO_RESTRICTION,
                Ouch42.REJECT_ODD_LOT_RESTRICTION,
                Ouch42.REJECT_MID_POINT_RESTRICTION,
                Ouch42.REJECT_PRE_MARKET_RESTRICTION,
                Ouch42.REJECT_POST_MARKET_RESTRICTION,
                Ouch42.REJECT_SHORT_SALE_RESTRICTION,
                Ouch42.REJECT_ON_OPEN_RESTRICTION,
                Ouch42.REJECT_ON_CLOSE_RESTRICTION,
                Ouch42.REJECT_TWO_SIDED_QUOTE,
                Ouch42.REJECT_EXCEEDED_SHARES_LIMIT,
                Ouch42.REJECT_EXCEEDED_DOLLAR_VALUE_LIMIT};

            assertThat(new String(reasons, StandardCharsets.US_ASCII)).isEqualTo("THZSDCLMRXNOWabcdefghijklmn");
        }
    }

    @Nested
    class OrderModifiedTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('M')
            .integer8(TIMESTAMP_NS)
            .alpha("MOD-7", 14)
            .alpha('E')
            .integer4(2_500)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderModified.LENGTH);
            assertThat(OrderModified.LENGTH).isEqualTo(28);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderModified message = new OrderModified().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(OrderModified.TYPE).isEqualTo(Ouch42.ORDER_MODIFIED);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("MOD-7");
            assertThat(message.buySellIndicator()).isEqualTo(Ouch42.SIDE_SELL_SHORT_EXEMPT);
            assertThat(message.shares()).isEqualTo(2_500);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderModified.LENGTH);
            new OrderModified().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("MOD-7")
                .buySellIndicator(Ouch42.SIDE_SELL_SHORT_EXEMPT)
                .shares(2_500);

            assertThat(written(buffer, OrderModified.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class CancelPendingTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('P')
            .integer8(TIMESTAMP_NS)
            .alpha("CROSS-1", 14)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(CancelPending.LENGTH);
            assertThat(CancelPending.LENGTH).isEqualTo(23);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final CancelPending message = new CancelPending().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(CancelPending.TYPE).isEqualTo(Ouch42.CANCEL_PENDING);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("CROSS-1");
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(CancelPending.LENGTH);
            new CancelPending().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("CROSS-1");

            assertThat(written(buffer, CancelPending.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class CancelRejectTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('I')
            .integer8(TIMESTAMP_NS)
            .alpha("CROSS-2", 14)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(CancelReject.LENGTH);
            assertThat(CancelReject.LENGTH).isEqualTo(23);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final CancelReject message = new CancelReject().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(CancelReject.TYPE).isEqualTo(Ouch42.CANCEL_REJECT);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("CROSS-2");
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(CancelReject.LENGTH);
            new CancelReject().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken(at(spec), OFFSET + CancelReject.ORDER_TOKEN_OFFSET);

            assertThat(written(buffer, CancelReject.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class OrderPriorityUpdateTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('T')
            .integer8(TIMESTAMP_NS)
            .alpha("PEG-3", 14)
            .integer4(1_234_500)
            .alpha('M')
            .integer8(0x0A0B_0C0D_0E0F_1011L)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(OrderPriorityUpdate.LENGTH);
            assertThat(OrderPriorityUpdate.LENGTH).isEqualTo(36);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final OrderPriorityUpdate message = new OrderPriorityUpdate().wrap(at(spec), OFFSET);

            assertThat(message.messageType())
                .isEqualTo(OrderPriorityUpdate.TYPE)
                .isEqualTo(Ouch42.ORDER_PRIORITY_UPDATE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("PEG-3");
            assertThat(message.price()).isEqualTo(1_234_500);
            assertThat(message.display()).isEqualTo(Ouch42.DISPLAY_MID_POINT_PEG);
            assertThat(message.orderReferenceNumber()).isEqualTo(0x0A0B_0C0D_0E0F_1011L);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(OrderPriorityUpdate.LENGTH);
            new OrderPriorityUpdate().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("PEG-3")
                .price(1_234_500)
                .display(Ouch42.DISPLAY_MID_POINT_PEG)
                .orderReferenceNumber(0x0A0B_0C0D_0E0F_1011L);

            assertThat(written(buffer, OrderPriorityUpdate.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class BrokenTradeTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('B')
            .integer8(TIMESTAMP_NS)
            .alpha("EXEC-00000001", 14)
            .integer8(987_654_321L)
            .alpha('C')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(BrokenTrade.LENGTH);
            assertThat(BrokenTrade.LENGTH).isEqualTo(32);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final BrokenTrade message = new BrokenTrade().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(BrokenTrade.TYPE).isEqualTo(Ouch42.BROKEN_TRADE);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("EXEC-00000001");
            assertThat(message.matchNumber()).isEqualTo(987_654_321L);
            assertThat(message.reason()).isEqualTo(Ouch42.BROKEN_TRADE_CONSENT);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(BrokenTrade.LENGTH);
            new BrokenTrade().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("EXEC-00000001")
                .matchNumber(987_654_321L)
                .reason(Ouch42.BROKEN_TRADE_CONSENT);

            assertThat(written(buffer, BrokenTrade.LENGTH)).isEqualTo(spec);
        }

        @Test
        void shouldMatchSpecCodesWhenListingReasons()
        {
            final byte[] reasons = {
                Ouch42.BROKEN_TRADE_ERRONEOUS,
                Ouch42.BROKEN_TRADE_CONSENT,
                Ouch42.BROKEN_TRADE_SUPERVISORY,
                Ouch42.BROKEN_TRADE_EXTERNAL};

            assertThat(new String(reasons, StandardCharsets.US_ASCII)).isEqualTo("ECSX");
        }
    }

    @Nested
    class AiqCanceledTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('D')
            .integer8(TIMESTAMP_NS)
            .alpha("SMP-9", 14)
            .integer4(400)
            .alpha('Q')
            .integer4(300)
            .integer4(2_000_100)
            .alpha('A')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(AiqCanceled.LENGTH);
            assertThat(AiqCanceled.LENGTH).isEqualTo(37);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final AiqCanceled message = new AiqCanceled().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(AiqCanceled.TYPE).isEqualTo(Ouch42.AIQ_CANCELED);
            assertThat(message.timestamp()).isEqualTo(TIMESTAMP_NS);
            assertThat(message.orderTokenAsString()).isEqualTo("SMP-9");
            assertThat(message.decrementShares()).isEqualTo(400);
            assertThat(message.reason()).isEqualTo(Ouch42.CANCEL_SELF_MATCH_PREVENTION);
            assertThat(message.quantityPreventedFromTrading()).isEqualTo(300);
            assertThat(message.executionPrice()).isEqualTo(2_000_100);
            assertThat(message.liquidityFlag()).isEqualTo(Ouch42.LIQUIDITY_ADDED);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = empty(AiqCanceled.LENGTH);
            new AiqCanceled().wrapAndApplyType(buffer, OFFSET)
                .timestamp(TIMESTAMP_NS)
                .orderToken("SMP-9")
                .decrementShares(400)
                .reason(Ouch42.CANCEL_SELF_MATCH_PREVENTION)
                .quantityPreventedFromTrading(300)
                .executionPrice(2_000_100)
                .liquidityFlag(Ouch42.LIQUIDITY_ADDED);

            assertThat(written(buffer, AiqCanceled.LENGTH)).isEqualTo(spec);
        }
    }
}
