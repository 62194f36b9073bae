package io.bourse.common;

import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.CancelPendingEncoder;
import io.bourse.sbe.engine.CancelRejectedEncoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.CommandStreamJoinedEncoder;
import io.bourse.sbe.engine.CrossCompletedEncoder;
import io.bourse.sbe.engine.CrossLockEncoder;
import io.bourse.sbe.engine.MessageHeaderDecoder;
import io.bourse.sbe.engine.MessageHeaderEncoder;
import io.bourse.sbe.engine.NewOrderEncoder;
import io.bourse.sbe.engine.OrderAcceptedEncoder;
import io.bourse.sbe.engine.OrderAddedEncoder;
import io.bourse.sbe.engine.OrderCanceledEncoder;
import io.bourse.sbe.engine.OrderExecutedEncoder;
import io.bourse.sbe.engine.OrderPriorityUpdatedEncoder;
import io.bourse.sbe.engine.OrderRejectedEncoder;
import io.bourse.sbe.engine.OrderReplacedEncoder;
import io.bourse.sbe.engine.ReplaceOrderEncoder;
import io.bourse.sbe.engine.RunCrossEncoder;
import io.bourse.sbe.engine.RunStartedEncoder;
import io.bourse.sbe.engine.SequencedCommandEncoder;
import io.bourse.sbe.engine.SetPriceBandEncoder;
import io.bourse.sbe.engine.SetSelfTradePreventionEncoder;
import io.bourse.sbe.engine.SetTradingStateEncoder;
import io.bourse.sbe.engine.StartNumberingEncoder;
import io.bourse.sbe.engine.TradeBrokenEncoder;
import io.bourse.sbe.engine.TradingStateChangedEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EngineBlockLengthsTest
{
    private static final int VERSION = MessageHeaderEncoder.SCHEMA_VERSION;

    /** The encoder of every message of the schema. */
    static final List<Class<?>> MESSAGES = List.of(
        NewOrderEncoder.class, CancelOrderEncoder.class, ReplaceOrderEncoder.class, ClockTickEncoder.class,
        SetTradingStateEncoder.class, SetPriceBandEncoder.class, SetSelfTradePreventionEncoder.class,
        BreakTradeEncoder.class, CrossLockEncoder.class, RunCrossEncoder.class, StartNumberingEncoder.class,
        OrderAcceptedEncoder.class, OrderRejectedEncoder.class, OrderAddedEncoder.class, OrderExecutedEncoder.class,
        OrderCanceledEncoder.class, OrderReplacedEncoder.class, TradeBrokenEncoder.class, CancelPendingEncoder.class,
        CancelRejectedEncoder.class, CrossCompletedEncoder.class, OrderPriorityUpdatedEncoder.class,
        TradingStateChangedEncoder.class, SequencedCommandEncoder.class, AdminResponseEncoder.class,
        RunStartedEncoder.class, CommandStreamJoinedEncoder.class);

    /**
     * Checks the table against the generated codecs, so that a field added to a message later breaks it: at each
     * version, a message needs its block up to its first field of a later version, or its whole block.
     */
    @Test
    void shouldRequireTheBlockUpToTheFirstFieldOfALaterVersionForEveryMessageAtEveryVersion() throws Exception
    {
        final Map<Integer, Class<?>> byTemplate = new HashMap<>();
        for (final Class<?> message : MESSAGES)
        {
            byTemplate.put(message.getField("TEMPLATE_ID").getInt(null), message);
        }
        for (int templateId = 0; templateId < 64; templateId++)
        {
            final Class<?> message = byTemplate.get(templateId);
            for (int version = 0; version <= VERSION + 1; version++)
            {
                assertThat(EngineBlockLengths.requiredBlockLength(templateId, version))
                    .as("template %d version %d", templateId, version)
                    .isEqualTo(null == message ? 0 : fieldsOfVersion(message, version));
            }
        }
    }

    @Test
    void shouldTakeAMessageAsWholeOnlyWhenItsFragmentHoldsItsBlockAndItsBlockItsVersionsFields()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final MessageHeaderEncoder encoder = new MessageHeaderEncoder().wrap(buffer, 0)
            .templateId(OrderExecutedEncoder.TEMPLATE_ID).schemaId(OrderExecutedEncoder.SCHEMA_ID);
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        final int whole = MessageHeaderEncoder.ENCODED_LENGTH + OrderExecutedEncoder.BLOCK_LENGTH;
        final int withoutCrossType = OrderExecutedEncoder.crossTypeEncodingOffset();

        encoder.version(VERSION).blockLength(OrderExecutedEncoder.BLOCK_LENGTH);
        assertThat(EngineBlockLengths.isWhole(header, whole)).isTrue();
        assertThat(EngineBlockLengths.isWhole(header, whole - 1)).as("the fragment cut").isFalse();
        encoder.blockLength(withoutCrossType);
        assertThat(EngineBlockLengths.isWhole(header, whole)).as("version 9 without its crossType").isFalse();
        encoder.version(OrderExecutedEncoder.crossTypeSinceVersion() - 1);
        assertThat(EngineBlockLengths.isWhole(header, MessageHeaderEncoder.ENCODED_LENGTH + withoutCrossType))
            .as("version 1, which has no crossType").isTrue();
    }

    /** The block of a message's fields at a version, from its encoder's field offsets and versions. */
    private static int fieldsOfVersion(final Class<?> message, final int version) throws Exception
    {
        int length = message.getField("BLOCK_LENGTH").getInt(null);
        for (final Method method : message.getMethods())
        {
            final String name = method.getName();
            if (Modifier.isStatic(method.getModifiers()) && name.endsWith("SinceVersion") &&
                (int)method.invoke(null) > version)
            {
                final String field = name.substring(0, name.length() - "SinceVersion".length());
                final Method offset = findEncodingOffset(message, field);
                if (null != offset) // a field of the block, not var data
                {
                    length = Math.min(length, (int)offset.invoke(null));
                }
            }
        }
        return length;
    }

    private static Method findEncodingOffset(final Class<?> message, final String field)
    {
        try
        {
            return message.getMethod(field + "EncodingOffset");
        }
        catch (final NoSuchMethodException ex)
        {
            return null;
        }
    }

    @Test
    void shouldRequireOnlyTheFieldsAnEarlierVersionHad()
    {
        assertThat(EngineBlockLengths.requiredBlockLength(NewOrderEncoder.TEMPLATE_ID, 0))
            .isEqualTo(NewOrderEncoder.minimumQuantityEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(NewOrderEncoder.TEMPLATE_ID, 1))
            .isEqualTo(NewOrderEncoder.crossTypeEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(ReplaceOrderEncoder.TEMPLATE_ID, 3))
            .isEqualTo(ReplaceOrderEncoder.timeInForceEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(StartNumberingEncoder.TEMPLATE_ID, 8))
            .isEqualTo(StartNumberingEncoder.recoveredRunsEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderAcceptedEncoder.TEMPLATE_ID, 0))
            .isEqualTo(OrderAcceptedEncoder.displayEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderAddedEncoder.TEMPLATE_ID, 0))
            .isEqualTo(OrderAddedEncoder.displayEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderAddedEncoder.TEMPLATE_ID, 2))
            .isEqualTo(OrderAddedEncoder.firmEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderExecutedEncoder.TEMPLATE_ID, 1))
            .isEqualTo(OrderExecutedEncoder.crossTypeEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderReplacedEncoder.TEMPLATE_ID, 0))
            .isEqualTo(OrderReplacedEncoder.displayEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(OrderReplacedEncoder.TEMPLATE_ID, 1))
            .isEqualTo(OrderReplacedEncoder.crossTypeEncodingOffset());
        assertThat(EngineBlockLengths.requiredBlockLength(SequencedCommandEncoder.TEMPLATE_ID, 5))
            .as("version 5: the command's data only").isZero();
        assertThat(EngineBlockLengths.requiredBlockLength(CancelOrderEncoder.TEMPLATE_ID, 0))
            .isEqualTo(CancelOrderEncoder.BLOCK_LENGTH);
    }
}
