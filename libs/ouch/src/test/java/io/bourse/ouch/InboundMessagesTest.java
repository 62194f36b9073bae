package io.bourse.ouch;

import io.bourse.common.config.Symbols;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InboundMessagesTest
{
    private static final int OFFSET = 3;

    private static UnsafeBuffer at(final byte[] message)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + message.length + 5]);
        buffer.putBytes(OFFSET, message);
        return buffer;
    }

    private static byte[] written(final UnsafeBuffer buffer, final int length)
    {
        return Arrays.copyOfRange(buffer.byteArray(), OFFSET, OFFSET + length);
    }

    @Nested
    class EnterOrderTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('O')
            .alpha("TOKEN-0001", 14)
            .alpha('B')
            .integer4(3_000_000_000L)
            .alpha("AAPL", 8)
            .integer4(1_999_999_900L)
            .integer4(99_998)
            .alpha("FIRM", 4)
            .alpha('Y')
            .alpha('A')
            .alpha('N')
            .integer4(100)
            .alpha('N')
            .alpha('R')
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(EnterOrder.LENGTH);
            assertThat(EnterOrder.LENGTH).isEqualTo(49);
            assertThat(new EnterOrder().encodedLength()).isEqualTo(49);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final EnterOrder message = new EnterOrder().wrap(at(spec), OFFSET);
            final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
            message.getOrderToken(token);

            assertThat(message.messageType()).isEqualTo(EnterOrder.TYPE);
            assertThat(message.orderTokenAsString()).isEqualTo("TOKEN-0001");
            assertThat(token).isEqualTo("TOKEN-0001    ".getBytes());
            assertThat(message.buySellIndicator()).isEqualTo(Ouch42.SIDE_BUY);
            assertThat(message.shares()).isEqualTo(3_000_000_000L);
            assertThat(message.stock()).isEqualTo(Symbols.pack("AAPL"));
            assertThat(message.price()).isEqualTo(Ouch42.MAX_PRICE);
            assertThat(message.timeInForce()).isEqualTo(Ouch42.TIME_IN_FORCE_MARKET_HOURS);
            assertThat(message.firmAsString()).isEqualTo("FIRM");
            assertThat(message.firm()).isEqualTo(('F' << 24) | ('I' << 16) | ('R' << 8) | 'M');
            assertThat(message.display()).isEqualTo((byte)'Y');
            assertThat(message.capacity()).isEqualTo(Ouch42.CAPACITY_AGENCY);
            assertThat(message.intermarketSweepEligibility()).isEqualTo(Ouch42.ISE_NOT_ELIGIBLE);
            assertThat(message.minimumQuantity()).isEqualTo(100);
            assertThat(message.crossType()).isEqualTo(Ouch42.CROSS_TYPE_NO_CROSS);
            assertThat(message.customerType()).isEqualTo(Ouch42.CUSTOMER_TYPE_RETAIL);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + EnterOrder.LENGTH]);
            new EnterOrder().wrapAndApplyType(buffer, OFFSET)
                .orderToken("TOKEN-0001")
                .buySellIndicator(Ouch42.SIDE_BUY)
                .shares(3_000_000_000L)
                .stock(Symbols.pack("AAPL"))
                .price(Ouch42.MAX_PRICE)
                .timeInForce(Ouch42.TIME_IN_FORCE_MARKET_HOURS)
                .firm("FIRM")
                .display(Ouch42.DISPLAY_ANONYMOUS)
                .capacity(Ouch42.CAPACITY_AGENCY)
                .intermarketSweepEligibility(Ouch42.ISE_NOT_ELIGIBLE)
                .minimumQuantity(100)
                .crossType(Ouch42.CROSS_TYPE_NO_CROSS)
                .customerType(Ouch42.CUSTOMER_TYPE_RETAIL);

            assertThat(written(buffer, EnterOrder.LENGTH)).isEqualTo(spec);
        }

        @Test
        void shouldCopyTokenAndFirmWhenSetFromRawForms()
        {
            final EnterOrder source = new EnterOrder().wrap(at(spec), OFFSET);
            final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
            source.getOrderToken(token);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + EnterOrder.LENGTH]);

            final EnterOrder copy = new EnterOrder().wrapAndApplyType(buffer, OFFSET)
                .orderToken(token)
                .firm(source.firm());

            assertThat(copy.orderTokenAsString()).isEqualTo("TOKEN-0001");
            assertThat(copy.firmAsString()).isEqualTo("FIRM");
        }

        @Test
        void shouldRejectTokenWhenLongerThanFourteenCharacters()
        {
            final EnterOrder message = new EnterOrder().wrapAndApplyType(new UnsafeBuffer(new byte[64]), 0);

            assertThatThrownBy(() -> message.orderToken("123456789012345"))
                .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> message.firm("FIRMS")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class ReplaceOrderTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('U')
            .alpha("OLD", 14)
            .alpha("NEW-TOKEN-0002", 14)
            .integer4(250)
            .integer4(1_234_500)
            .integer4(0)
            .alpha('N')
            .alpha('Y')
            .integer4(0)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(ReplaceOrder.LENGTH);
            assertThat(ReplaceOrder.LENGTH).isEqualTo(47);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final ReplaceOrder message = new ReplaceOrder().wrap(at(spec), OFFSET);
            final byte[] existing = new byte[Ouch42.TOKEN_LENGTH];
            final byte[] replacement = new byte[Ouch42.TOKEN_LENGTH];
            message.getExistingOrderToken(existing);
            message.getReplacementOrderToken(replacement);

            assertThat(message.messageType()).isEqualTo(ReplaceOrder.TYPE);
            assertThat(message.existingOrderTokenAsString()).isEqualTo("OLD");
            assertThat(existing).isEqualTo("OLD           ".getBytes());
            assertThat(message.replacementOrderTokenAsString()).isEqualTo("NEW-TOKEN-0002");
            assertThat(replacement).isEqualTo("NEW-TOKEN-0002".getBytes());
            assertThat(message.shares()).isEqualTo(250);
            assertThat(message.price()).isEqualTo(1_234_500);
            assertThat(message.timeInForce()).isEqualTo(Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL);
            assertThat(message.display()).isEqualTo(Ouch42.DISPLAY_NON_DISPLAY);
            assertThat(message.intermarketSweepEligibility()).isEqualTo(Ouch42.ISE_ELIGIBLE);
            assertThat(message.minimumQuantity()).isZero();
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + ReplaceOrder.LENGTH]);
            new ReplaceOrder().wrapAndApplyType(buffer, OFFSET)
                .existingOrderToken("OLD")
                .replacementOrderToken("NEW-TOKEN-0002")
                .shares(250)
                .price(1_234_500)
                .timeInForce(Ouch42.TIME_IN_FORCE_IMMEDIATE_OR_CANCEL)
                .display(Ouch42.DISPLAY_NON_DISPLAY)
                .intermarketSweepEligibility(Ouch42.ISE_ELIGIBLE)
                .minimumQuantity(0);

            assertThat(written(buffer, ReplaceOrder.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class CancelOrderTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('X')
            .alpha("abc~!", 14)
            .integer4(0xFFFF_FFFFL)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(CancelOrder.LENGTH);
            assertThat(CancelOrder.LENGTH).isEqualTo(19);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final CancelOrder message = new CancelOrder().wrap(at(spec), OFFSET);

            assertThat(message.messageType()).isEqualTo(CancelOrder.TYPE);
            assertThat(message.orderTokenAsString()).isEqualTo("abc~!");
            assertThat(message.shares()).isEqualTo(4_294_967_295L);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + CancelOrder.LENGTH]);
            new CancelOrder().wrapAndApplyType(buffer, OFFSET)
                .orderToken(at(spec), OFFSET + CancelOrder.ORDER_TOKEN_OFFSET)
                .shares(4_294_967_295L);

            assertThat(written(buffer, CancelOrder.LENGTH)).isEqualTo(spec);
        }
    }

    @Nested
    class ModifyOrderTest
    {
        private final byte[] spec = new SpecBytes()
            .alpha('M')
            .alpha("MOD-7", 14)
            .alpha('T')
            .integer4(2_500)
            .toByteArray();

        @Test
        void shouldMatchSpecLengthWhenBuiltFromTable()
        {
            assertThat(spec).hasSize(ModifyOrder.LENGTH);
            assertThat(ModifyOrder.LENGTH).isEqualTo(20);
            assertThat(new ModifyOrder().encodedLength()).isEqualTo(20);
        }

        @Test
        void shouldReadFieldsWhenWrappingSpecBytes()
        {
            final ModifyOrder message = new ModifyOrder().wrap(at(spec), OFFSET);
            final byte[] token = new byte[Ouch42.TOKEN_LENGTH];
            message.getOrderToken(token);

            assertThat(message.messageType()).isEqualTo(ModifyOrder.TYPE).isEqualTo(Ouch42.MODIFY_ORDER);
            assertThat(message.orderTokenAsString()).isEqualTo("MOD-7");
            assertThat(token).isEqualTo("MOD-7         ".getBytes());
            assertThat(message.buySellIndicator()).isEqualTo(Ouch42.SIDE_SELL_SHORT);
            assertThat(message.shares()).isEqualTo(2_500);
        }

        @Test
        void shouldWriteSpecBytesWhenSettingFields()
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFFSET + ModifyOrder.LENGTH]);
            new ModifyOrder().wrapAndApplyType(buffer, OFFSET)
                .orderToken("MOD-7")
                .buySellIndicator(Ouch42.SIDE_SELL_SHORT)
                .shares(2_500);

            assertThat(written(buffer, ModifyOrder.LENGTH)).isEqualTo(spec);
        }
    }
}
