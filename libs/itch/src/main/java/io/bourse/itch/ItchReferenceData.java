package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.SymbolDirectory;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The ITCH 5.0 messages that open a feed: System Event (§4.1) and one Stock Directory (§4.2.1) per symbol (a fanout
 * subscriber's SoupBinTCP session, the md-publisher's MoldUDP64 session), and the Trading Action spin, one Stock
 * Trading Action (§4.2.2) per symbol (the MoldUDP64 session's opening; the fanout's book starts from it and heads
 * each symbol of a snapshot with the symbol's latest). The Stock Directory has the values of a NASDAQ Global Select
 * common stock traded in round lots of 100, its Authenticity marked Test since this is a simulated market. Encodes
 * into one reused buffer; one instance per thread.
 */
public final class ItchReferenceData
{
    /** Length of ITCH 5.0 System Event 'S'. */
    public static final int SYSTEM_EVENT_LENGTH = 12;
    /** Length of ITCH 5.0 Stock Directory 'R'. */
    public static final int STOCK_DIRECTORY_LENGTH = 39;
    /** Stock Trading Action Reason of all spaces: none given (packed big-endian). */
    public static final int REASON_NONE = 0x2020_2020;
    /** Round Lot Size of every symbol, in shares. */
    public static final int ROUND_LOT_SIZE = 100;

    /** Issue Classification 'C': common stock. */
    private static final byte ISSUE_CLASSIFICATION_COMMON_STOCK = 'C';
    /** Issue Sub-Type "Z ": not applicable. */
    private static final short ISSUE_SUB_TYPE_NOT_APPLICABLE = ('Z' << 8) | ' ';

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(STOCK_DIRECTORY_LENGTH);
    private final ITCH50.SystemEvent systemEvent = new ITCH50.SystemEvent();
    private final ITCH50.StockDirectory stockDirectory = new ITCH50.StockDirectory();
    private final ITCH50.StockTradingAction stockTradingAction = new ITCH50.StockTradingAction();
    private final List<SymbolDirectory.Entry> symbols;

    /**
     * @param symbolDirectory the symbols to list, in locate order.
     */
    public ItchReferenceData(final SymbolDirectory symbolDirectory)
    {
        this.symbols = symbolDirectory.entries();
        stockDirectory.marketCategory = ITCH50.MARKET_CATEGORY_NASDAQ_GLOBAL_SELECT_MARKET;
        stockDirectory.financialStatusIndicator = ITCH50.FINANCIAL_STATUS_INDICATOR_NORMAL;
        stockDirectory.roundLotSize = ROUND_LOT_SIZE;
        stockDirectory.roundLotsOnly = ITCH50.NO;
        stockDirectory.issueClassification = ISSUE_CLASSIFICATION_COMMON_STOCK;
        stockDirectory.issueSubType = ISSUE_SUB_TYPE_NOT_APPLICABLE;
        stockDirectory.authenticity = ITCH50.AUTHENTICTY_TEST;
        stockDirectory.shortSaleThresholdIndicator = ITCH50.NO;
        stockDirectory.ipoFlag = ITCH50.NO;
        stockDirectory.luldReferencePriceTier = ITCH50.LULD_REFERENCE_PRICE_TIER_1;
        stockDirectory.etpFlag = ITCH50.NO;
        stockDirectory.etpLeverageFactor = 0;
        stockDirectory.inverseIndicator = ITCH50.NO;
    }

    /**
     * @param eventCode   e.g. {@link ITCH50#EVENT_CODE_START_OF_MESSAGES}.
     * @param timestampNs nanoseconds since midnight.
     * @return the System Event message, position 0 and limit at its end; valid until the next call.
     */
    public ByteBuffer systemEvent(final byte eventCode, final long timestampNs)
    {
        systemEvent.stockLocate = 0;
        systemEvent.trackingNumber = 0;
        systemEvent.timestampHigh = ItchTranslator.timestampHigh(timestampNs);
        systemEvent.timestampLow = ItchTranslator.timestampLow(timestampNs);
        systemEvent.eventCode = eventCode;
        buffer.clear();
        systemEvent.put(buffer);
        return buffer.flip();
    }

    /** @return number of symbols, hence of Stock Directory messages. */
    public int symbolCount()
    {
        return symbols.size();
    }

    /**
     * @param index       0 for the first symbol in locate order.
     * @param timestampNs nanoseconds since midnight.
     * @return the Stock Directory message, position 0 and limit at its end; valid until the next call.
     */
    public ByteBuffer stockDirectory(final int index, final long timestampNs)
    {
        final SymbolDirectory.Entry entry = symbols.get(index);
        stockDirectory.stockLocate = entry.locate();
        stockDirectory.trackingNumber = 0;
        stockDirectory.timestampHigh = ItchTranslator.timestampHigh(timestampNs);
        stockDirectory.timestampLow = ItchTranslator.timestampLow(timestampNs);
        stockDirectory.stock = entry.packed();
        buffer.clear();
        stockDirectory.put(buffer);
        return buffer.flip();
    }

    /**
     * The symbol's message of the Trading Action spin (ITCH 5.0 §4.2.2: sent for every security before the start of
     * system hours; a security absent from it is to be taken as halted): Trading State {@code T}, Reason blank.
     *
     * @param index       0 for the first symbol in locate order.
     * @param timestampNs nanoseconds since midnight.
     * @return the Stock Trading Action message, position 0 and limit at its end; valid until the next call.
     */
    public ByteBuffer stockTradingAction(final int index, final long timestampNs)
    {
        final SymbolDirectory.Entry entry = symbols.get(index);
        stockTradingAction.stockLocate = entry.locate();
        stockTradingAction.trackingNumber = 0;
        stockTradingAction.timestampHigh = ItchTranslator.timestampHigh(timestampNs);
        stockTradingAction.timestampLow = ItchTranslator.timestampLow(timestampNs);
        stockTradingAction.stock = entry.packed();
        stockTradingAction.tradingState = ITCH50.TRADING_STATE_TRADING;
        stockTradingAction.reserved = ' ';
        stockTradingAction.reason = REASON_NONE;
        buffer.clear();
        stockTradingAction.put(buffer);
        return buffer.flip();
    }
}
