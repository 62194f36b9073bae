package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.common.time.MidnightNanoClock;
import io.bourse.sbe.md.AddOrderDecoder;
import io.bourse.sbe.md.BestBidOfferDecoder;
import io.bourse.sbe.md.BookSnapshotDecoder;
import io.bourse.sbe.md.BooleanType;
import io.bourse.sbe.md.BrokenTradeDecoder;
import io.bourse.sbe.md.CrossTradeDecoder;
import io.bourse.sbe.md.CrossType;
import io.bourse.sbe.md.MessageHeaderDecoder;
import io.bourse.sbe.md.OrderCancelDecoder;
import io.bourse.sbe.md.OrderDeleteDecoder;
import io.bourse.sbe.md.OrderExecutedDecoder;
import io.bourse.sbe.md.OrderExecutedWithPriceDecoder;
import io.bourse.sbe.md.OrderReplaceDecoder;
import io.bourse.sbe.md.PriceLevelSnapshotDecoder;
import io.bourse.sbe.md.PriceLevelUpdateDecoder;
import io.bourse.sbe.md.Side;
import io.bourse.sbe.md.SnapshotCompleteDecoder;
import io.bourse.sbe.md.StockTradingActionDecoder;
import io.bourse.sbe.md.TradeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Translates Bourse SBE market data (schemas/market-data-schema.xml) into NASDAQ TotalView-ITCH 5.0 messages: Add Order
 * (§4.3.1; Add Order with MPID Attribution §4.3.2 when the AddOrder's attribution is not blank), Order Executed
 * (§4.4.1), Order Executed With Price (§4.4.2), Order Cancel (§4.4.3), Order Delete (§4.4.4), Order Replace (§4.4.5),
 * Trade (§4.5.1, non-cross), Cross Trade (§4.5.2), Broken Trade (§4.5.3: an execution broken by the operator, named by
 * its Match Number) and Stock Trading Action (§4.2.2: a symbol halted or trading again; Reserved a space).
 *
 * <p>ITCH carries an execution against a displayed resting order on that order, as Order Executed 'E': the Trade
 * that follows it in the market data (makerDisplayed TRUE) has no ITCH form. An execution against a resting order
 * that is not displayed (OUCH 4.2 Display N or M, never sent as Add Order) arrives as a Trade alone (makerDisplayed
 * FALSE) and becomes Trade 'P', the message NASDAQ uses for executions of non-displayable orders: Order Reference
 * Number 0, and Buy/Sell Indicator always 'B' whatever side rested, as NASDAQ has sent it since 2014; Shares, Price
 * and Match Number of the execution. Price levels and best bid and offer have no ITCH form.
 *
 * <p>A cross executes a displayed order at the cross price: Order Executed With Price 'C' on that order, Printable
 * 'N' (non-printable, so that volume is not counted twice) and Execution Price the cross price; the cross's price and
 * volume follow as one Cross Trade 'Q' (Shares, Cross Price, its own Match Number, Cross Type), also for a cross that
 * executed nothing (Shares 0, Cross Price 0, Match Number 0). Cross Trade is written here field by field, not with
 * juncture-nasdaq 1.0.0's {@code ITCH50.CrossTrade}, whose Shares is 4 bytes (the ITCH 4.1 layout) where ITCH 5.0 has
 * 8, making 36 bytes instead of 40.
 *
 * <p>Stock Locate is the symbol's locate code from the {@link SymbolDirectory}, Tracking Number is 0, the 6-byte
 * Timestamp is the nanoseconds since midnight of the market data, Stock is the 8 space-padded symbol bytes, and
 * prices keep their 4 implied decimals. Allocates nothing after construction; one instance per thread.
 */
public final class ItchTranslator
{
    /**
     * ITCH 5.0 &sect;1 message header: where every message carries its Timestamp (6 bytes, big-endian, nanoseconds
     * since midnight), after Message Type (1), Stock Locate (2) and Tracking Number (2).
     */
    public static final int TIMESTAMP_OFFSET = 5;
    /**
     * Result of {@link #translate} for market data that has no ITCH form: the Trade of a displayed maker (or of
     * schema version 0, which does not say), PriceLevelUpdate and BestBidOffer (of the depth and BBO feeds), and the
     * snapshot messages.
     */
    public static final int NO_ITCH_FORM = 0;
    /** Result of {@link #translate} for a message that cannot be translated. */
    public static final int NOT_TRANSLATED = -1;
    /** Length of ITCH 5.0 Add Order 'A'. */
    public static final int ADD_ORDER_LENGTH = 36;
    /** Length of ITCH 5.0 Add Order with MPID Attribution 'F'. */
    public static final int ADD_ORDER_MPID_LENGTH = 40;
    /** Length of ITCH 5.0 Order Executed 'E'. */
    public static final int ORDER_EXECUTED_LENGTH = 31;
    /** Length of ITCH 5.0 Order Executed With Price 'C'. */
    public static final int ORDER_EXECUTED_WITH_PRICE_LENGTH = 36;
    /** Length of ITCH 5.0 Order Cancel 'X'. */
    public static final int ORDER_CANCEL_LENGTH = 23;
    /** Length of ITCH 5.0 Order Delete 'D'. */
    public static final int ORDER_DELETE_LENGTH = 19;
    /** Length of ITCH 5.0 Order Replace 'U'. */
    public static final int ORDER_REPLACE_LENGTH = 35;
    /** Length of ITCH 5.0 Trade (non-cross) 'P'. */
    public static final int TRADE_LENGTH = 44;
    /** Length of ITCH 5.0 Cross Trade 'Q': Shares is 8 bytes in ITCH 5.0. */
    public static final int CROSS_TRADE_LENGTH = 40;
    /** Length of ITCH 5.0 Broken Trade 'B'. */
    public static final int BROKEN_TRADE_LENGTH = 19;
    /** Length of ITCH 5.0 Stock Trading Action 'H'. */
    public static final int STOCK_TRADING_ACTION_LENGTH = 25;
    /**
     * The Attribution of an anonymous order, as a big-endian int: four spaces (market-data AddOrder.attribution; ITCH
     * 5.0 §4.3.2 has an Attribution only in Add Order with MPID Attribution).
     */
    public static final int ANONYMOUS_ATTRIBUTION = 0x2020_2020;
    /** Longest message this class writes. */
    public static final int MAX_LENGTH = TRADE_LENGTH;

    private static final long MISSING_LOCATE = 0;
    /** ITCH 5.0 Trade Order Reference Number: NASDAQ zeroes it on executions of non-displayable orders. */
    private static final long UNDISCLOSED_ORDER_REFERENCE_NUMBER = 0;

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final AddOrderDecoder addOrderDecoder = new AddOrderDecoder();
    private final OrderExecutedDecoder orderExecutedDecoder = new OrderExecutedDecoder();
    private final OrderExecutedWithPriceDecoder orderExecutedWithPriceDecoder = new OrderExecutedWithPriceDecoder();
    private final OrderCancelDecoder orderCancelDecoder = new OrderCancelDecoder();
    private final OrderDeleteDecoder orderDeleteDecoder = new OrderDeleteDecoder();
    private final OrderReplaceDecoder orderReplaceDecoder = new OrderReplaceDecoder();
    private final TradeDecoder tradeDecoder = new TradeDecoder();
    private final BrokenTradeDecoder brokenTradeDecoder = new BrokenTradeDecoder();
    private final CrossTradeDecoder crossTradeDecoder = new CrossTradeDecoder();
    private final StockTradingActionDecoder stockTradingActionDecoder = new StockTradingActionDecoder();
    private final ITCH50.AddOrder addOrder = new ITCH50.AddOrder();
    private final ITCH50.OrderExecuted orderExecuted = new ITCH50.OrderExecuted();
    private final ITCH50.OrderExecutedWithPrice orderExecutedWithPrice = new ITCH50.OrderExecutedWithPrice();
    private final ITCH50.OrderCancel orderCancel = new ITCH50.OrderCancel();
    private final ITCH50.OrderDelete orderDelete = new ITCH50.OrderDelete();
    private final ITCH50.OrderReplace orderReplace = new ITCH50.OrderReplace();
    private final ITCH50.Trade trade = new ITCH50.Trade();
    private final ITCH50.BrokenTrade brokenTrade = new ITCH50.BrokenTrade();
    private final ITCH50.StockTradingAction stockTradingAction = new ITCH50.StockTradingAction();
    private final Long2LongHashMap locateBySymbol = new Long2LongHashMap(MISSING_LOCATE);
    private long timestampNs;

    /**
     * @param symbolDirectory gives each symbol its Stock Locate code.
     */
    public ItchTranslator(final SymbolDirectory symbolDirectory)
    {
        for (final SymbolDirectory.Entry entry : symbolDirectory.entries())
        {
            locateBySymbol.put(entry.packed(), entry.locate());
        }
    }

    /**
     * ITCH 5.0 Timestamp, upper 2 bytes: of the time of day ({@link MidnightNanoClock#timeOfDay}).
     *
     * @param timestampNs nanoseconds since the midnight UTC of the clock's start, possibly past a day.
     * @return bits 47..32 of the nanoseconds since the latest midnight.
     */
    public static int timestampHigh(final long timestampNs)
    {
        return (int)((MidnightNanoClock.timeOfDay(timestampNs) >>> 32) & 0xFFFF);
    }

    /**
     * ITCH 5.0 Timestamp, lower 4 bytes: of the time of day ({@link MidnightNanoClock#timeOfDay}).
     *
     * @param timestampNs nanoseconds since the midnight UTC of the clock's start, possibly past a day.
     * @return bits 31..0 of the nanoseconds since the latest midnight.
     */
    public static long timestampLow(final long timestampNs)
    {
        return MidnightNanoClock.timeOfDay(timestampNs) & 0xFFFF_FFFFL;
    }

    /**
     * ITCH 5.0 Timestamp from its two parts as read from a message at {@link #TIMESTAMP_OFFSET} (big-endian): the
     * inverse of {@link #timestampHigh} and {@link #timestampLow}.
     *
     * @param high the upper 2 bytes, e.g. a short read; the bits above them are ignored.
     * @param low  the lower 4 bytes, e.g. an int read; the bits above them are ignored.
     * @return nanoseconds since midnight.
     */
    public static long timeOfDayNs(final int high, final long low)
    {
        return ((long)(high & 0xFFFF) << 32) | (low & 0xFFFF_FFFFL);
    }

    /**
     * Translates one SBE market-data message.
     *
     * @param buffer holds the SBE message, header first.
     * @param offset of the SBE header.
     * @param length of the SBE message in bytes.
     * @param dst    receives the ITCH message at its position (big-endian, as ITCH is), which advances; needs
     *               {@link #MAX_LENGTH} bytes remaining.
     * @return the ITCH length in bytes; {@link #NO_ITCH_FORM} for the trades of displayed makers, L2/L1 and the
     *         recovery messages (BookSnapshot, SnapshotComplete: a subscriber of the market-data stream applies
     *         them to its books itself; ITCH feeds recover by re-request or by a snapshot of their own);
     *         {@link #NOT_TRANSLATED} for another schema, an unknown template, a short message or root block (one
     *         that ends before a field the template has at its version), a symbol outside the directory or a field
     *         value outside the schema.
     */
    public int translate(final DirectBuffer buffer, final int offset, final int length, final ByteBuffer dst)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return NOT_TRANSLATED;
        }
        headerDecoder.wrap(buffer, offset);
        final int blockLength = headerDecoder.blockLength();
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID ||
            length < MessageHeaderDecoder.ENCODED_LENGTH + blockLength)
        {
            return NOT_TRANSLATED;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int version = headerDecoder.version();
        final int templateId = headerDecoder.templateId();
        if (blockLength < fieldsRead(templateId, version))
        {
            return NOT_TRANSLATED;
        }
        return switch (templateId)
        {
            case AddOrderDecoder.TEMPLATE_ID -> addOrder(buffer, bodyOffset, blockLength, version, dst);
            case OrderExecutedDecoder.TEMPLATE_ID -> orderExecuted(buffer, bodyOffset, blockLength, version, dst);
            case OrderExecutedWithPriceDecoder.TEMPLATE_ID ->
                orderExecutedWithPrice(buffer, bodyOffset, blockLength, version, dst);
            case OrderCancelDecoder.TEMPLATE_ID -> orderCancel(buffer, bodyOffset, blockLength, version, dst);
            case OrderDeleteDecoder.TEMPLATE_ID -> orderDelete(buffer, bodyOffset, blockLength, version, dst);
            case OrderReplaceDecoder.TEMPLATE_ID -> orderReplace(buffer, bodyOffset, blockLength, version, dst);
            case TradeDecoder.TEMPLATE_ID -> trade(buffer, bodyOffset, blockLength, version, dst);
            case BrokenTradeDecoder.TEMPLATE_ID -> brokenTrade(buffer, bodyOffset, blockLength, version, dst);
            case CrossTradeDecoder.TEMPLATE_ID -> crossTrade(buffer, bodyOffset, blockLength, version, dst);
            case StockTradingActionDecoder.TEMPLATE_ID ->
                stockTradingAction(buffer, bodyOffset, blockLength, version, dst);
            case PriceLevelUpdateDecoder.TEMPLATE_ID, BestBidOfferDecoder.TEMPLATE_ID,
                 BookSnapshotDecoder.TEMPLATE_ID, PriceLevelSnapshotDecoder.TEMPLATE_ID,
                 SnapshotCompleteDecoder.TEMPLATE_ID -> NO_ITCH_FORM;
            default -> NOT_TRANSLATED;
        };
    }

    /**
     * @return bytes of the template's root block at that version: the whole block, but before version 4 for AddOrder
     *         and before version 1 for Trade, whose blocks ended before the field added then; from a shorter block
     *         this translator would read fields of whatever follows.
     */
    private static int fieldsRead(final int templateId, final int version)
    {
        return switch (templateId)
        {
            case AddOrderDecoder.TEMPLATE_ID -> version >= AddOrderDecoder.attributionSinceVersion() ?
                AddOrderDecoder.BLOCK_LENGTH : AddOrderDecoder.attributionEncodingOffset();
            case TradeDecoder.TEMPLATE_ID -> version >= TradeDecoder.makerDisplayedSinceVersion() ?
                TradeDecoder.BLOCK_LENGTH : TradeDecoder.makerDisplayedEncodingOffset();
            case OrderExecutedDecoder.TEMPLATE_ID -> OrderExecutedDecoder.BLOCK_LENGTH;
            case OrderExecutedWithPriceDecoder.TEMPLATE_ID -> OrderExecutedWithPriceDecoder.BLOCK_LENGTH;
            case OrderCancelDecoder.TEMPLATE_ID -> OrderCancelDecoder.BLOCK_LENGTH;
            case OrderDeleteDecoder.TEMPLATE_ID -> OrderDeleteDecoder.BLOCK_LENGTH;
            case OrderReplaceDecoder.TEMPLATE_ID -> OrderReplaceDecoder.BLOCK_LENGTH;
            case BrokenTradeDecoder.TEMPLATE_ID -> BrokenTradeDecoder.BLOCK_LENGTH;
            case CrossTradeDecoder.TEMPLATE_ID -> CrossTradeDecoder.BLOCK_LENGTH;
            case StockTradingActionDecoder.TEMPLATE_ID -> StockTradingActionDecoder.BLOCK_LENGTH;
            default -> 0;
        };
    }

    /** @return nanoseconds since midnight of the last message translated. */
    public long timestampNs()
    {
        return timestampNs;
    }

    private int addOrder(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final AddOrderDecoder decoder = addOrderDecoder.wrap(buffer, offset, blockLength, version);
        final int attribution = version >= AddOrderDecoder.attributionSinceVersion() ?
            buffer.getInt(offset + AddOrderDecoder.attributionEncodingOffset(), ByteOrder.BIG_ENDIAN) : 0;
        return addOrder(decoder.timestampNs(), Symbols.pack(buffer, offset + AddOrderDecoder.symbolEncodingOffset()),
            decoder.orderId(), decoder.sideRaw(), decoder.quantity(), decoder.price(), attribution, dst);
    }

    /**
     * Writes ITCH 5.0 Add Order 'A' (§4.3.1), or Add Order with MPID Attribution 'F' (§4.3.2) for an attributed order:
     * what {@link #translate} writes for an SBE AddOrder with these fields, for a resting order announced anew (the
     * Add Order spin of a new MoldUDP64 session).
     *
     * @param timestampNs nanoseconds since the midnight UTC of some day ({@link MidnightNanoClock#timeOfDay} is
     *                    written).
     * @param symbol      the packed symbol ({@link Symbols#pack}).
     * @param orderId     the Order Reference Number.
     * @param side        {@link Side#BUY} or {@link Side#SELL}'s value.
     * @param shares      open shares.
     * @param price       in 1/10000 dollars.
     * @param attribution the MPID, 4 ASCII bytes packed big-endian; 0 or {@link #ANONYMOUS_ATTRIBUTION} for none.
     * @param dst         receives the message at its position, which advances; needs {@link #ADD_ORDER_MPID_LENGTH}
     *                    bytes remaining.
     * @return {@link #ADD_ORDER_LENGTH} or {@link #ADD_ORDER_MPID_LENGTH}; {@link #NOT_TRANSLATED}, writing nothing,
     *         for a symbol outside the directory or another side.
     */
    public int addOrder(
        final long timestampNs, final long symbol, final long orderId, final byte side, final long shares,
        final long price, final int attribution, final ByteBuffer dst)
    {
        final int locate = (int)locateBySymbol.get(symbol);
        if (MISSING_LOCATE == locate || (side != Side.BUY.value() && side != Side.SELL.value()))
        {
            return NOT_TRANSLATED;
        }
        this.timestampNs = timestampNs;
        final int start = dst.position();
        addOrder.stockLocate = locate;
        addOrder.trackingNumber = 0;
        addOrder.timestampHigh = timestampHigh(timestampNs);
        addOrder.timestampLow = timestampLow(timestampNs);
        addOrder.orderReferenceNumber = orderId;
        addOrder.buySellIndicator = side == Side.BUY.value() ? ITCH50.BUY : ITCH50.SELL;
        addOrder.shares = shares;
        addOrder.stock = symbol;
        addOrder.price = price;
        addOrder.put(dst);
        if (0 == attribution || ANONYMOUS_ATTRIBUTION == attribution)
        {
            return ADD_ORDER_LENGTH;
        }
        // Add Order with MPID Attribution: the Add Order's fields, then Attribution at offset 36.
        dst.put(start, ITCH50.MESSAGE_TYPE_ADD_ORDER_MPID).putInt(attribution);
        return ADD_ORDER_MPID_LENGTH;
    }

    private int orderExecuted(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final OrderExecutedDecoder decoder = orderExecutedDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + OrderExecutedDecoder.symbolEncodingOffset()));
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        orderExecuted.stockLocate = locate;
        orderExecuted.trackingNumber = 0;
        orderExecuted.timestampHigh = timestampHigh(timestampNs);
        orderExecuted.timestampLow = timestampLow(timestampNs);
        orderExecuted.orderReferenceNumber = decoder.orderId();
        orderExecuted.executedShares = decoder.executedQuantity();
        orderExecuted.matchNumber = decoder.matchNumber();
        orderExecuted.put(dst);
        return ORDER_EXECUTED_LENGTH;
    }

    private int orderExecutedWithPrice(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final OrderExecutedWithPriceDecoder decoder =
            orderExecutedWithPriceDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + OrderExecutedWithPriceDecoder.symbolEncodingOffset()));
        final short printable = decoder.printableRaw();
        if (MISSING_LOCATE == locate ||
            (BooleanType.TRUE.value() != printable && BooleanType.FALSE.value() != printable))
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        orderExecutedWithPrice.stockLocate = locate;
        orderExecutedWithPrice.trackingNumber = 0;
        orderExecutedWithPrice.timestampHigh = timestampHigh(timestampNs);
        orderExecutedWithPrice.timestampLow = timestampLow(timestampNs);
        orderExecutedWithPrice.orderReferenceNumber = decoder.orderId();
        orderExecutedWithPrice.executedShares = decoder.executedQuantity();
        orderExecutedWithPrice.matchNumber = decoder.matchNumber();
        orderExecutedWithPrice.printable = BooleanType.TRUE.value() == printable ? ITCH50.YES : ITCH50.NO;
        orderExecutedWithPrice.executionPrice = decoder.price();
        orderExecutedWithPrice.put(dst);
        return ORDER_EXECUTED_WITH_PRICE_LENGTH;
    }

    private int orderCancel(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final OrderCancelDecoder decoder = orderCancelDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + OrderCancelDecoder.symbolEncodingOffset()));
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        orderCancel.stockLocate = locate;
        orderCancel.trackingNumber = 0;
        orderCancel.timestampHigh = timestampHigh(timestampNs);
        orderCancel.timestampLow = timestampLow(timestampNs);
        orderCancel.orderReferenceNumber = decoder.orderId();
        orderCancel.canceledShares = decoder.canceledQuantity();
        orderCancel.put(dst);
        return ORDER_CANCEL_LENGTH;
    }

    private int orderDelete(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final OrderDeleteDecoder decoder = orderDeleteDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + OrderDeleteDecoder.symbolEncodingOffset()));
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        orderDelete.stockLocate = locate;
        orderDelete.trackingNumber = 0;
        orderDelete.timestampHigh = timestampHigh(timestampNs);
        orderDelete.timestampLow = timestampLow(timestampNs);
        orderDelete.orderReferenceNumber = decoder.orderId();
        orderDelete.put(dst);
        return ORDER_DELETE_LENGTH;
    }

    private int orderReplace(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final OrderReplaceDecoder decoder = orderReplaceDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + OrderReplaceDecoder.symbolEncodingOffset()));
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        orderReplace.stockLocate = locate;
        orderReplace.trackingNumber = 0;
        orderReplace.timestampHigh = timestampHigh(timestampNs);
        orderReplace.timestampLow = timestampLow(timestampNs);
        orderReplace.originalOrderReferenceNumber = decoder.originalOrderId();
        orderReplace.newOrderReferenceNumber = decoder.newOrderId();
        orderReplace.shares = decoder.quantity();
        orderReplace.price = decoder.price();
        orderReplace.put(dst);
        return ORDER_REPLACE_LENGTH;
    }

    private int brokenTrade(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final BrokenTradeDecoder decoder = brokenTradeDecoder.wrap(buffer, offset, blockLength, version);
        final int locate = (int)locateBySymbol.get(
            Symbols.pack(buffer, offset + BrokenTradeDecoder.symbolEncodingOffset()));
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        brokenTrade.stockLocate = locate;
        brokenTrade.trackingNumber = 0;
        brokenTrade.timestampHigh = timestampHigh(timestampNs);
        brokenTrade.timestampLow = timestampLow(timestampNs);
        brokenTrade.matchNumber = decoder.matchNumber();
        brokenTrade.put(dst);
        return BROKEN_TRADE_LENGTH;
    }

    private int stockTradingAction(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final StockTradingActionDecoder decoder = stockTradingActionDecoder.wrap(buffer, offset, blockLength, version);
        return stockTradingAction(decoder.timestampNs(),
            Symbols.pack(buffer, offset + StockTradingActionDecoder.symbolEncodingOffset()), decoder.tradingStateRaw(),
            buffer.getInt(offset + StockTradingActionDecoder.reasonEncodingOffset(), ByteOrder.BIG_ENDIAN), dst);
    }

    /**
     * Writes ITCH 5.0 Stock Trading Action 'H' (§4.2.2), Reserved a space: what {@link #translate} writes for an SBE
     * StockTradingAction with these fields, for a symbol's state announced anew (the Trading Action spin of a new
     * MoldUDP64 session).
     *
     * @param timestampNs  nanoseconds since the midnight UTC of some day ({@link MidnightNanoClock#timeOfDay} is
     *                     written).
     * @param symbol       the packed symbol ({@link Symbols#pack}).
     * @param tradingState 'H' halted, 'P' paused, 'Q' quotation only or 'T' trading.
     * @param reason       4 ASCII bytes packed big-endian, e.g. {@link ItchReferenceData#REASON_NONE}.
     * @param dst          receives the message at its position, which advances; needs
     *                     {@link #STOCK_TRADING_ACTION_LENGTH} bytes remaining.
     * @return {@link #STOCK_TRADING_ACTION_LENGTH}; {@link #NOT_TRANSLATED}, writing nothing, for a symbol outside the
     *         directory or another state.
     */
    public int stockTradingAction(
        final long timestampNs, final long symbol, final byte tradingState, final int reason, final ByteBuffer dst)
    {
        final int locate = (int)locateBySymbol.get(symbol);
        if (MISSING_LOCATE == locate || !isTradingState(tradingState))
        {
            return NOT_TRANSLATED;
        }
        this.timestampNs = timestampNs;
        stockTradingAction.stockLocate = locate;
        stockTradingAction.trackingNumber = 0;
        stockTradingAction.timestampHigh = timestampHigh(timestampNs);
        stockTradingAction.timestampLow = timestampLow(timestampNs);
        stockTradingAction.stock = symbol;
        stockTradingAction.tradingState = tradingState;
        stockTradingAction.reserved = ' ';
        stockTradingAction.reason = reason;
        stockTradingAction.put(dst);
        return STOCK_TRADING_ACTION_LENGTH;
    }

    private static boolean isTradingState(final byte state)
    {
        return ITCH50.TRADING_STATE_HALTED == state || ITCH50.TRADING_STATE_PAUSED == state ||
            ITCH50.TRADING_STATE_QUOTATION_PERIOD == state || ITCH50.TRADING_STATE_TRADING == state;
    }

    /**
     * ITCH 5.0 §4.5.2 Cross Trade, big-endian: Message Type 'Q', Stock Locate (2), Tracking Number (2), Timestamp
     * (6), Shares (8), Stock (8), Cross Price (4), Match Number (8), Cross Type (1).
     */
    private int crossTrade(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final CrossTradeDecoder decoder = crossTradeDecoder.wrap(buffer, offset, blockLength, version);
        final long symbol = Symbols.pack(buffer, offset + CrossTradeDecoder.symbolEncodingOffset());
        final int locate = (int)locateBySymbol.get(symbol);
        final byte crossType = decoder.crossTypeRaw();
        if (MISSING_LOCATE == locate || !isCrossType(crossType))
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        dst.put(ITCH50.MESSAGE_TYPE_CROSS_TRADE)
            .putShort((short)locate)
            .putShort((short)0)
            .putShort((short)timestampHigh(timestampNs))
            .putInt((int)timestampLow(timestampNs))
            .putLong(decoder.shares())
            .putLong(symbol)
            .putInt((int)decoder.crossPrice())
            .putLong(decoder.matchNumber())
            .put(crossType);
        return CROSS_TRADE_LENGTH;
    }

    private static boolean isCrossType(final byte crossType)
    {
        return CrossType.OPENING.value() == crossType || CrossType.CLOSING.value() == crossType ||
            CrossType.HALT_OR_IPO.value() == crossType || CrossType.INTRADAY.value() == crossType;
    }

    private int trade(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final ByteBuffer dst)
    {
        final TradeDecoder decoder = tradeDecoder.wrap(buffer, offset, blockLength, version);
        final short makerDisplayed = decoder.makerDisplayedRaw();
        if (BooleanType.FALSE.value() != makerDisplayed)
        {
            // TRUE: Order Executed has carried the execution; NULL_VAL: a version 0 Trade, which does not say.
            return BooleanType.TRUE.value() == makerDisplayed || BooleanType.NULL_VAL.value() == makerDisplayed ?
                NO_ITCH_FORM : NOT_TRANSLATED;
        }
        final long symbol = Symbols.pack(buffer, offset + TradeDecoder.symbolEncodingOffset());
        final int locate = (int)locateBySymbol.get(symbol);
        if (MISSING_LOCATE == locate)
        {
            return NOT_TRANSLATED;
        }
        timestampNs = decoder.timestampNs();
        trade.stockLocate = locate;
        trade.trackingNumber = 0;
        trade.timestampHigh = timestampHigh(timestampNs);
        trade.timestampLow = timestampLow(timestampNs);
        trade.orderReferenceNumber = UNDISCLOSED_ORDER_REFERENCE_NUMBER;
        trade.buySellIndicator = ITCH50.BUY;
        trade.shares = decoder.quantity();
        trade.stock = symbol;
        trade.price = decoder.price();
        trade.matchNumber = decoder.matchNumber();
        trade.put(dst);
        return TRADE_LENGTH;
    }
}
