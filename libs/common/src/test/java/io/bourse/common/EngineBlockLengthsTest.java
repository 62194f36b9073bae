package io.bourse.common;

import io.bourse.sbe.engine.AdminResponseEncoder;
import io.bourse.sbe.engine.BreakTradeEncoder;
import io.bourse.sbe.engine.CancelOrderEncoder;
import io.bourse.sbe.engine.CancelPendingEncoder;
import io.bourse.sbe.engine.CancelRejectedEncoder;
import io.bourse.sbe.engine.ClockTickEncoder;
import io.bourse.sbe.engine.CrossCompletedEncoder;
import io.bourse.sbe.engine.CrossLockEncoder;
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
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EngineBlockLengthsTest
{
    private static final int VERSION = MessageHeaderEncoder.SCHEMA_VERSION;

    /** Every message of the schema, by template id, with the block length the encoders write today. */
    private static final Map<Integer, Integer> BLOCK_LENGTHS = Map.ofEntries(
        Map.entry(NewOrderEncoder.TEMPLATE_ID, NewOrderEncoder.BLOCK_LENGTH),
        Map.entry(CancelOrderEncoder.TEMPLATE_ID, CancelOrderEncoder.BLOCK_LENGTH),
        Map.entry(ReplaceOrderEncoder.TEMPLATE_ID, ReplaceOrderEncoder.BLOCK_LENGTH),
        Map.entry(ClockTickEncoder.TEMPLATE_ID, ClockTickEncoder.BLOCK_LENGTH),
        Map.entry(SetTradingStateEncoder.TEMPLATE_ID, SetTradingStateEncoder.BLOCK_LENGTH),
        Map.entry(SetPriceBandEncoder.TEMPLATE_ID, SetPriceBandEncoder.BLOCK_LENGTH),
        Map.entry(SetSelfTradePreventionEncoder.TEMPLATE_ID, SetSelfTradePreventionEncoder.BLOCK_LENGTH),
        Map.entry(BreakTradeEncoder.TEMPLATE_ID, BreakTradeEncoder.BLOCK_LENGTH),
        Map.entry(CrossLockEncoder.TEMPLATE_ID, CrossLockEncoder.BLOCK_LENGTH),
        Map.entry(RunCrossEncoder.TEMPLATE_ID, RunCrossEncoder.BLOCK_LENGTH),
        Map.entry(StartNumberingEncoder.TEMPLATE_ID, StartNumberingEncoder.BLOCK_LENGTH),
        Map.entry(OrderAcceptedEncoder.TEMPLATE_ID, OrderAcceptedEncoder.BLOCK_LENGTH),
        Map.entry(OrderRejectedEncoder.TEMPLATE_ID, OrderRejectedEncoder.BLOCK_LENGTH),
        Map.entry(OrderAddedEncoder.TEMPLATE_ID, OrderAddedEncoder.BLOCK_LENGTH),
        Map.entry(OrderExecutedEncoder.TEMPLATE_ID, OrderExecutedEncoder.BLOCK_LENGTH),
        Map.entry(OrderCanceledEncoder.TEMPLATE_ID, OrderCanceledEncoder.BLOCK_LENGTH),
        Map.entry(OrderReplacedEncoder.TEMPLATE_ID, OrderReplacedEncoder.BLOCK_LENGTH),
        Map.entry(TradeBrokenEncoder.TEMPLATE_ID, TradeBrokenEncoder.BLOCK_LENGTH),
        Map.entry(CancelPendingEncoder.TEMPLATE_ID, CancelPendingEncoder.BLOCK_LENGTH),
        Map.entry(CancelRejectedEncoder.TEMPLATE_ID, CancelRejectedEncoder.BLOCK_LENGTH),
        Map.entry(CrossCompletedEncoder.TEMPLATE_ID, CrossCompletedEncoder.BLOCK_LENGTH),
        Map.entry(OrderPriorityUpdatedEncoder.TEMPLATE_ID, OrderPriorityUpdatedEncoder.BLOCK_LENGTH),
        Map.entry(TradingStateChangedEncoder.TEMPLATE_ID, TradingStateChangedEncoder.BLOCK_LENGTH),
        Map.entry(SequencedCommandEncoder.TEMPLATE_ID, SequencedCommandEncoder.BLOCK_LENGTH),
        Map.entry(AdminResponseEncoder.TEMPLATE_ID, AdminResponseEncoder.BLOCK_LENGTH),
        Map.entry(RunStartedEncoder.TEMPLATE_ID, RunStartedEncoder.BLOCK_LENGTH));

    @Test
    void shouldRequireTheWholeBlockOfEveryMessageAtTheSchemasVersionAndNothingOfATemplateItDoesNotHave()
    {
        for (int templateId = 0; templateId < 64; templateId++)
        {
            assertThat(EngineBlockLengths.requiredBlockLength(templateId, VERSION)).as("template %d", templateId)
                .isEqualTo(BLOCK_LENGTHS.getOrDefault(templateId, 0));
            assertThat(EngineBlockLengths.requiredBlockLength(templateId, VERSION + 1))
                .as("template %d of a later version: its new fields are skipped", templateId)
                .isEqualTo(BLOCK_LENGTHS.getOrDefault(templateId, 0));
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
