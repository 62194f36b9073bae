package io.bourse.itch;

import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.AddOrderEncoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.CrossTradeEncoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.MessageHeaderEncoder;
import io.bourse.sbe.md.OrderExecutedEncoder;
import io.bourse.sbe.md.OrderExecutedWithPriceEncoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.StockTradingActionEncoder;
import io.bourse.sbe.md.TradeEncoder;
import io.bourse.sbe.md.TradingState;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** Bourse SBE market data in, exact ITCH 5.0 bytes out (field by field, big-endian, as the spec tables list them). */
class ItchTranslatorTest
{
    /** 09:30:00.123456789 = 0x1F1A_D635BD15 ns since midnight: Timestamp bytes 1F1A D635BD15. */
    private static final long T = 34_200_123_456_789L;
    private static final String TIMESTAMP = "1F1A D635BD15";
    private static final String MSFT = "4D53465420202020";

    private final ItchTranslator translator = new ItchTranslator(SymbolDirectory.parse("AAPL@0,MSFT@1"));
    private final MarketDataEncoder sbe = new MarketDataEncoder();
    private final ByteBuffer itch = ByteBuffer.allocate(128);

    /**
     * A Timestamp read back from its 6 bytes at their offset, as a signed short and a signed int (09:30:00.123456789,
     * whose lower 4 bytes have the top bit set), is the time of day written; the bits a signed read extends above
     * each part are ignored.
     */
    @Test
    void shouldReadTheTimestampBackFromItsSignedParts()
    {
        translate(sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100));

        final ByteBuffer message = ByteBuffer.wrap(written());
        final int timestamp = ItchTranslator.TIMESTAMP_OFFSET;
        assertThat(message.getInt(timestamp + Short.BYTES)).isNegative();
        assertThat(ItchTranslator.timeOfDayNs(message.getShort(timestamp), message.getInt(timestamp + Short.BYTES)))
            .isEqualTo(T);
        assertThat(ItchTranslator.timeOfDayNs(ItchTranslator.timestampHigh(T), ItchTranslator.timestampLow(T)))
            .isEqualTo(T);
        assertThat(ItchTranslator.timeOfDayNs((short)-1, -1)).isEqualTo(0xFFFF_FFFF_FFFFL);
    }

    @Test
    void shouldTranslateAddOrder()
    {
        final int length = translate(sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100));

        assertThat(length).isEqualTo(ItchTranslator.ADD_ORDER_LENGTH).isEqualTo(36);
        // Type, Stock Locate, Tracking Number, Timestamp, Order Reference Number, Buy/Sell, Shares, Stock, Price
        assertThat(written()).isEqualTo(hex(
            "41 0002 0000 " + TIMESTAMP + " 0000000000000011 42 0000012C " + MSFT + " 0016E3C4"));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldWriteTheTimeOfDayAsTheTimestampOfAnEventOnALaterDayOfTheClock()
    {
        // 09:30:00.123456789 four days after the midnight the publisher's clock counts from: past the 6 bytes' 3.26
        // days.
        final long fourDaysLaterNs = 4 * MidnightNanoClock.NANOS_PER_DAY + T;
        final int length = translate(sbe.addOrder(fourDaysLaterNs, "MSFT", 17, Side.BUY, 300, 1_500_100));

        assertThat(length).isEqualTo(ItchTranslator.ADD_ORDER_LENGTH);
        assertThat(written()).isEqualTo(hex(
            "41 0002 0000 " + TIMESTAMP + " 0000000000000011 42 0000012C " + MSFT + " 0016E3C4"));
        assertThat(translator.timestampNs()).isEqualTo(fourDaysLaterNs);
    }

    @Test
    void shouldTranslateAnAttributedAddOrderIntoAddOrderWithMpidAttribution()
    {
        final int length = translate(sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100, "GSCO"));

        assertThat(length).isEqualTo(ItchTranslator.ADD_ORDER_MPID_LENGTH).isEqualTo(40);
        // Type 'F', then Add Order's fields, then Attribution "GSCO"
        assertThat(written()).isEqualTo(hex(
            "46 0002 0000 " + TIMESTAMP + " 0000000000000011 42 0000012C " + MSFT + " 0016E3C4 4753434F"));
    }

    @Test
    void shouldTranslateTheAddOrderOfASenderBeforeSchemaVersion4AsAnonymous()
    {
        final int length = sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100, "GSCO");
        // The header's version 3: Attribution did not exist yet, whatever its bytes hold.
        sbe.buffer.putShort(MessageHeaderEncoder.versionEncodingOffset(), (short)3, ByteOrder.LITTLE_ENDIAN);

        assertThat(translate(length)).isEqualTo(ItchTranslator.ADD_ORDER_LENGTH);
        assertThat(written()[0]).isEqualTo((byte)'A');
    }

    @Test
    void shouldTranslateSellSideAndFirstLocate()
    {
        final int length = translate(sbe.addOrder(T, "AAPL", 33, Side.SELL, 100, 4_000_000));

        assertThat(length).isEqualTo(36);
        assertThat(written()).isEqualTo(hex(
            "41 0001 0000 " + TIMESTAMP + " 0000000000000021 53 00000064 4141504C20202020 003D0900"));
    }

    @Test
    void shouldTranslateOrderExecutedWithoutPrice()
    {
        final int length = translate(sbe.orderExecuted(T, "MSFT", 17, 250, 49, 1_500_100));

        assertThat(length).isEqualTo(ItchTranslator.ORDER_EXECUTED_LENGTH).isEqualTo(31);
        // Type, Stock Locate, Tracking Number, Timestamp, Order Reference Number, Executed Shares, Match Number
        assertThat(written()).isEqualTo(hex(
            "45 0002 0000 " + TIMESTAMP + " 0000000000000011 000000FA 0000000000000031"));
    }

    @Test
    void shouldTranslateNonPrintableOrderExecutedWithPriceOfACrossExecution()
    {
        final int length = translate(sbe.orderExecutedWithPrice(T, "MSFT", 17, 250, 49, BooleanType.FALSE, 1_500_300));

        assertThat(length).isEqualTo(ItchTranslator.ORDER_EXECUTED_WITH_PRICE_LENGTH).isEqualTo(36);
        assertThat(written()).isEqualTo(orderExecutedWithPrice(2, T, 17, 250, 49, 'N', 1_500_300));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldTranslatePrintableOrderExecutedWithPrice()
    {
        final int length = translate(sbe.orderExecutedWithPrice(T, "AAPL", 33, 100, 50, BooleanType.TRUE, 4_000_000));

        assertThat(length).isEqualTo(36);
        // Type, Stock Locate, Tracking Number, Timestamp, Order Reference Number, Executed Shares, Match Number,
        // Printable, Execution Price
        assertThat(written()).isEqualTo(hex(
            "43 0001 0000 " + TIMESTAMP + " 0000000000000021 00000064 0000000000000032 59 003D0900"));
    }

    @Test
    void shouldRefuseOrderExecutedWithPriceWhosePrintableIsOutsideTheSchemaOrOfUnknownSymbol()
    {
        final int length = sbe.orderExecutedWithPrice(T, "MSFT", 17, 250, 49, BooleanType.FALSE, 1_500_300);
        sbe.buffer.putByte(
            MessageHeaderEncoder.ENCODED_LENGTH + OrderExecutedWithPriceEncoder.printableEncodingOffset(), (byte)'N');

        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translate(sbe.orderExecutedWithPrice(T, "IBM", 17, 250, 49, BooleanType.FALSE, 1_500_300)))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldTranslateCrossTradeWithEightByteShares()
    {
        // 5,000,000,000 shares = 0x1_2A05_F200 needs the fifth byte that ITCH 4.1's 4-byte Shares did not have.
        final int length = translate(sbe.crossTrade(T, "MSFT", 5_000_000_000L, 1_500_300, 65, CrossType.CLOSING));

        assertThat(length).isEqualTo(ItchTranslator.CROSS_TRADE_LENGTH).isEqualTo(40);
        assertThat(written()).isEqualTo(crossTrade(2, T, 5_000_000_000L, MSFT, 1_500_300, 65, 'C'));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldTranslateCrossTradeOfACrossThatExecutedNothing()
    {
        final int length = translate(sbe.crossTrade(T, "AAPL", 0, 0, 0, CrossType.CLOSING));

        assertThat(length).isEqualTo(40);
        // Type, Stock Locate, Tracking Number, Timestamp, Shares, Stock, Cross Price, Match Number, Cross Type
        assertThat(written()).isEqualTo(hex(
            "51 0001 0000 " + TIMESTAMP + " 0000000000000000 4141504C20202020 00000000 0000000000000000 43"));
    }

    @Test
    void shouldRefuseCrossTradeWhoseCrossTypeIsOutsideTheSchemaOrOfUnknownSymbol()
    {
        final int length = sbe.crossTrade(T, "MSFT", 300, 1_500_300, 65, CrossType.CLOSING);
        sbe.buffer.putByte(
            MessageHeaderEncoder.ENCODED_LENGTH + CrossTradeEncoder.crossTypeEncodingOffset(), (byte)'N');

        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translate(sbe.crossTrade(T, "IBM", 300, 1_500_300, 65, CrossType.CLOSING)))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldRecordCrossTradeAtTheItch50OffsetsWhenParsed() throws Exception
    {
        final ItchEvents events = new ItchEvents();
        translate(sbe.crossTrade(T, "MSFT", 5_000_000_000L, 1_500_300, 65, CrossType.CLOSING));
        events.parser().message(itch.flip());
        itch.clear();
        translate(sbe.orderExecutedWithPrice(T, "MSFT", 17, 250, 49, BooleanType.FALSE, 1_500_300));
        events.parser().message(itch.flip());

        assertThat(events.messages).containsExactly(
            new ItchEvents.CrossTrade(2, 0, T, 5_000_000_000L, "MSFT", 1_500_300, 65, 'C'),
            new ItchEvents.OrderExecutedWithPrice(2, 0, T, 17, 250, 49, 'N', 1_500_300));
    }

    @Test
    void shouldTranslateOrderCancel()
    {
        final int length = translate(sbe.orderCancel(T, "MSFT", 17, 100));

        assertThat(length).isEqualTo(ItchTranslator.ORDER_CANCEL_LENGTH).isEqualTo(23);
        // Type, Stock Locate, Tracking Number, Timestamp, Order Reference Number, Canceled Shares
        assertThat(written()).isEqualTo(hex("58 0002 0000 " + TIMESTAMP + " 0000000000000011 00000064"));
    }

    @Test
    void shouldTranslateOrderDelete()
    {
        final int length = translate(sbe.orderDelete(T, "MSFT", 17));

        assertThat(length).isEqualTo(ItchTranslator.ORDER_DELETE_LENGTH).isEqualTo(19);
        // Type, Stock Locate, Tracking Number, Timestamp, Order Reference Number
        assertThat(written()).isEqualTo(hex("44 0002 0000 " + TIMESTAMP + " 0000000000000011"));
    }

    @Test
    void shouldTranslateOrderReplace()
    {
        final int length = translate(sbe.orderReplace(T, "MSFT", 17, 33, 300, 4_000_000));

        assertThat(length).isEqualTo(ItchTranslator.ORDER_REPLACE_LENGTH).isEqualTo(35);
        // Type, Stock Locate, Tracking Number, Timestamp, Original Order Reference Number, New Order Reference Number,
        // Shares, Price
        assertThat(written()).isEqualTo(hex(
            "55 0002 0000 " + TIMESTAMP + " 0000000000000011 0000000000000021 0000012C 003D0900"));
    }

    @Test
    void shouldTranslateTradeOfNonDisplayedMakerIntoTradeNonCross()
    {
        final int length = translate(sbe.trade(T, "MSFT", 49, Side.BUY, 200, 1_500_100, BooleanType.FALSE));

        assertThat(length).isEqualTo(ItchTranslator.TRADE_LENGTH).isEqualTo(44);
        assertThat(written()).isEqualTo(tradeNonCross(2, T, 200, MSFT, 1_500_100, 49));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldSendBuyIndicatorWhateverSideRestedWhenTranslatingTrade()
    {
        // A sell aggressor means a bid rested; NASDAQ still sends 'B' (always since 2014).
        final int length = translate(sbe.trade(T, "AAPL", 50, Side.SELL, 100, 4_000_000, BooleanType.FALSE));

        assertThat(length).isEqualTo(44);
        assertThat(written()).isEqualTo(tradeNonCross(1, T, 100, "4141504C20202020", 4_000_000, 50));
    }

    @Test
    void shouldTranslateBrokenTrade()
    {
        final int length = translate(sbe.brokenTrade(T, "MSFT", 49));

        assertThat(length).isEqualTo(ItchTranslator.BROKEN_TRADE_LENGTH).isEqualTo(19);
        // ITCH 5.0 §4.5.3: Type, Stock Locate, Tracking Number, Timestamp, Match Number
        assertThat(written()).isEqualTo(hex("42 0002 0000 " + TIMESTAMP + " 0000000000000031"));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldRefuseBrokenTradeOfUnknownSymbol()
    {
        assertThat(translate(sbe.brokenTrade(T, "GOOG", 49))).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldTranslateStockTradingAction()
    {
        final int length = translate(sbe.stockTradingAction(T, "MSFT", TradingState.HALTED, "O1  "));

        assertThat(length).isEqualTo(ItchTranslator.STOCK_TRADING_ACTION_LENGTH).isEqualTo(25);
        // ITCH 5.0 §4.2.2: Type, Stock Locate, Tracking Number, Timestamp, Stock, Trading State, Reserved, Reason
        assertThat(written()).isEqualTo(hex("48 0002 0000 " + TIMESTAMP + " " + MSFT + " 48 20 4F312020"));
        assertThat(translator.timestampNs()).isEqualTo(T);
    }

    @Test
    void shouldRefuseStockTradingActionOfUnknownSymbolOrState()
    {
        assertThat(translate(sbe.stockTradingAction(T, "GOOG", TradingState.TRADING, "    ")))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        final int length = sbe.stockTradingAction(T, "MSFT", TradingState.TRADING, "    ");
        sbe.buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + StockTradingActionEncoder.tradingStateEncodingOffset(),
            (byte)'X');
        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldWriteAnAddOrderAndAStockTradingActionFromTheirFieldsAsTranslateDoes()
    {
        final long msft = Symbols.pack("MSFT");
        assertThat(translator.addOrder(T, msft, 17, Side.SELL.value(), 300, 1_500_100, 0, itch))
            .isEqualTo(ItchTranslator.ADD_ORDER_LENGTH);
        assertThat(translator.addOrder(T, msft, 18, Side.BUY.value(), 200, 1_500_000, ('G' << 24) | ('S' << 16) |
            ('C' << 8) | 'O', itch)).isEqualTo(ItchTranslator.ADD_ORDER_MPID_LENGTH);
        assertThat(translator.stockTradingAction(T, msft, (byte)'H', ('O' << 24) | ('1' << 16) | 0x2020, itch))
            .isEqualTo(ItchTranslator.STOCK_TRADING_ACTION_LENGTH);

        assertThat(written()).isEqualTo(hex(
            "41 0002 0000 " + TIMESTAMP + " 0000000000000011 53 0000012C " + MSFT + " 0016E3C4" +
            " 46 0002 0000 " + TIMESTAMP + " 0000000000000012 42 000000C8 " + MSFT + " 0016E360 4753434F" +
            " 48 0002 0000 " + TIMESTAMP + " " + MSFT + " 48 20 4F312020"));
    }

    @Test
    void shouldWriteNothingForAnAddOrderOrStockTradingActionOfUnknownSymbolSideOrState()
    {
        final long goog = Symbols.pack("GOOG");
        final long msft = Symbols.pack("MSFT");
        assertThat(translator.addOrder(T, goog, 17, Side.BUY.value(), 300, 1_500_100, 0, itch))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translator.addOrder(T, msft, 17, (byte)'X', 300, 1_500_100, 0, itch))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translator.stockTradingAction(T, goog, (byte)'T', ItchReferenceData.REASON_NONE, itch))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translator.stockTradingAction(T, msft, (byte)'X', ItchReferenceData.REASON_NONE, itch))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldWriteNothingWhenMessageHasNoItchForm()
    {
        assertThat(translate(sbe.trade(T, "MSFT", 49, Side.BUY, 100, 1_500_100, BooleanType.TRUE)))
            .isEqualTo(ItchTranslator.NO_ITCH_FORM);
        assertThat(translate(sbe.priceLevelUpdate(T, "MSFT", 1_500_100, 100)))
            .isEqualTo(ItchTranslator.NO_ITCH_FORM);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldWriteNothingForTradeOfSchemaVersion0()
    {
        final int length = sbe.trade(T, "MSFT", 49, Side.BUY, 100, 1_500_100, BooleanType.FALSE);
        // Version 0: the block ends before makerDisplayed, which the message then does not carry.
        sbe.buffer.putShort(0, (short)(TradeEncoder.BLOCK_LENGTH - 1), ByteOrder.LITTLE_ENDIAN);
        sbe.buffer.putShort(6, (short)0, ByteOrder.LITTLE_ENDIAN);

        assertThat(translate(length - 1)).isEqualTo(ItchTranslator.NO_ITCH_FORM);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldRefuseUnknownSymbolForeignSchemaAndShortMessage()
    {
        assertThat(translate(sbe.addOrder(T, "IBM", 17, Side.BUY, 300, 1_500_100)))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translate(sbe.trade(T, "IBM", 49, Side.BUY, 100, 1_500_100, BooleanType.FALSE)))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);

        final int length = sbe.orderDelete(T, "MSFT", 17);
        sbe.buffer.putShort(4, (short)1);
        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(translator.translate(new UnsafeBuffer(new byte[4]), 0, 4, itch))
            .isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldRefuseAMessageWhoseRootBlockEndsBeforeAFieldItsTemplateHasAtItsVersion()
    {
        // A header alone, saying block length 0: the fields would be read past the message (they threw).
        final int length = sbe.addOrder(T, "MSFT", 17, Side.BUY, 300, 1_500_100);
        sbe.buffer.putShort(0, (short)0, ByteOrder.LITTLE_ENDIAN);
        assertThat(translate(MessageHeaderEncoder.ENCODED_LENGTH)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        // A block one byte short of the price: the price would be read from whatever follows (it was).
        sbe.buffer.putShort(0, (short)(AddOrderEncoder.priceEncodingOffset() + 7), ByteOrder.LITTLE_ENDIAN);
        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        // Version 4 with a version 3 block: the attribution would be read from whatever follows.
        sbe.buffer.putShort(0, (short)AddOrderEncoder.attributionEncodingOffset(), ByteOrder.LITTLE_ENDIAN);
        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        // The same block at version 3 is whole.
        sbe.buffer.putShort(MessageHeaderEncoder.versionEncodingOffset(), (short)3, ByteOrder.LITTLE_ENDIAN);
        assertThat(translate(length)).isEqualTo(ItchTranslator.ADD_ORDER_LENGTH);
        itch.clear();

        final int executed = sbe.orderExecuted(T, "MSFT", 17, 100, 49, 1_500_100);
        sbe.buffer.putShort(0, (short)(OrderExecutedEncoder.BLOCK_LENGTH - 1), ByteOrder.LITTLE_ENDIAN);
        assertThat(translate(executed)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldRefuseTradeWhoseMakerDisplayedIsOutsideTheSchema()
    {
        final int length = sbe.trade(T, "MSFT", 49, Side.BUY, 100, 1_500_100, BooleanType.FALSE);
        sbe.buffer.putByte(
            MessageHeaderEncoder.ENCODED_LENGTH + TradeEncoder.makerDisplayedEncodingOffset(), (byte)2);

        assertThat(translate(length)).isEqualTo(ItchTranslator.NOT_TRANSLATED);
        assertThat(itch.position()).isZero();
    }

    @Test
    void shouldSplitTheTimeOfDayIntoHighAndLowParts()
    {
        assertThat(ItchTranslator.timestampHigh(0x1234_8765_4321L)).isEqualTo(0x1234);
        assertThat(ItchTranslator.timestampLow(0x1234_8765_4321L)).isEqualTo(0x8765_4321L);
        // The last nanosecond of a day, 0x4E94_914E_FFFF; the first of the next is 0 again, not 0x4E94_914F_0000.
        assertThat(ItchTranslator.timestampHigh(86_399_999_999_999L)).isEqualTo(0x4E94);
        assertThat(ItchTranslator.timestampLow(86_399_999_999_999L)).isEqualTo(0x914E_FFFFL);
        assertThat(ItchTranslator.timestampHigh(86_400_000_000_000L)).isZero();
        assertThat(ItchTranslator.timestampLow(86_400_000_000_000L)).isZero();
    }

    private int translate(final int sbeLength)
    {
        return translator.translate(sbe.buffer, 0, sbeLength, itch);
    }

    private byte[] written()
    {
        final byte[] bytes = new byte[itch.position()];
        itch.flip().get(bytes);
        return bytes;
    }

    /**
     * ITCH 5.0 §4.5.1 Trade Message (Non-Cross), built field by field at the offsets of the spec's table, big-endian.
     */
    private static byte[] tradeNonCross(
        final int stockLocate, final long timestampNs, final int shares, final String stockHex, final int price,
        final long matchNumber)
    {
        return ByteBuffer.allocate(44)
            .put(0, (byte)'P')                                  // Message Type
            .putShort(1, (short)stockLocate)                    // Stock Locate
            .putShort(3, (short)0)                              // Tracking Number
            .putShort(5, (short)(timestampNs >>> 32))           // Timestamp, 6 bytes
            .putInt(7, (int)timestampNs)
            .putLong(11, 0)                                     // Order Reference Number: 0
            .put(19, (byte)'B')                                 // Buy/Sell Indicator: always B
            .putInt(20, shares)                                 // Shares
            .put(24, hex(stockHex))                             // Stock
            .putInt(32, price)                                  // Price
            .putLong(36, matchNumber)                           // Match Number
            .array();
    }

    /**
     * ITCH 5.0 §4.4.2 Order Executed With Price Message, built field by field at the offsets of the spec's table,
     * big-endian.
     */
    private static byte[] orderExecutedWithPrice(
        final int stockLocate, final long timestampNs, final long orderReferenceNumber, final int executedShares,
        final long matchNumber, final char printable, final int executionPrice)
    {
        return ByteBuffer.allocate(36)
            .put(0, (byte)'C')                                  // Message Type
            .putShort(1, (short)stockLocate)                    // Stock Locate
            .putShort(3, (short)0)                              // Tracking Number
            .putShort(5, (short)(timestampNs >>> 32))           // Timestamp, 6 bytes
            .putInt(7, (int)timestampNs)
            .putLong(11, orderReferenceNumber)                  // Order Reference Number
            .putInt(19, executedShares)                         // Executed Shares
            .putLong(23, matchNumber)                           // Match Number
            .put(31, (byte)printable)                           // Printable
            .putInt(32, executionPrice)                         // Execution Price
            .array();
    }

    /** ITCH 5.0 §4.5.2 Cross Trade Message, built field by field at the offsets of the spec's table, big-endian. */
    private static byte[] crossTrade(
        final int stockLocate, final long timestampNs, final long shares, final String stockHex, final int crossPrice,
        final long matchNumber, final char crossType)
    {
        return ByteBuffer.allocate(40)
            .put(0, (byte)'Q')                                  // Message Type
            .putShort(1, (short)stockLocate)                    // Stock Locate
            .putShort(3, (short)0)                              // Tracking Number
            .putShort(5, (short)(timestampNs >>> 32))           // Timestamp, 6 bytes
            .putInt(7, (int)timestampNs)
            .putLong(11, shares)                                // Shares, 8 bytes
            .put(19, hex(stockHex))                             // Stock
            .putInt(27, crossPrice)                             // Cross Price
            .putLong(31, matchNumber)                           // Match Number
            .put(39, (byte)crossType)                           // Cross Type
            .array();
    }

    static byte[] hex(final String spaced)
    {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }
}
