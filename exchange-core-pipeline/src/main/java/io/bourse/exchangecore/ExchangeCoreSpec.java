package io.bourse.exchangecore;

import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import io.bourse.workload.ExchangeCoreCommands;

/**
 * The symbol of exchange-core's single-symbol "margin" benchmark and the mapping of {@link ExchangeCoreCommands}
 * codes onto exchange-core's enums.
 */
public final class ExchangeCoreSpec
{
    /** Symbol id of the one order book. */
    public static final int SYMBOL = 1;
    /** Quote currency of the futures contract: the currency every account is funded in. */
    public static final int QUOTE_CURRENCY = 840;

    /** A futures contract without fees: margin mode, as in exchange-core's PerfThroughput#testThroughputMargin. */
    public static final CoreSymbolSpecification SYMBOL_SPEC = CoreSymbolSpecification.builder()
        .symbolId(SYMBOL)
        .type(SymbolType.FUTURES_CONTRACT)
        .baseCurrency(978)
        .quoteCurrency(QUOTE_CURRENCY)
        .baseScaleK(1)
        .quoteScaleK(1)
        .marginBuy(2_200)
        .marginSell(3_210)
        .takerFee(0)
        .makerFee(0)
        .build();

    private ExchangeCoreSpec()
    {
    }

    /**
     * @param side {@link ExchangeCoreCommands#SIDE_BUY} or {@link ExchangeCoreCommands#SIDE_SELL}.
     * @return exchange-core's action: BID for a buy, ASK for a sell.
     */
    public static OrderAction action(final byte side)
    {
        return ExchangeCoreCommands.SIDE_BUY == side ? OrderAction.BID : OrderAction.ASK;
    }

    /**
     * @param orderType {@link ExchangeCoreCommands#TYPE_GTC}, {@code TYPE_IOC} or {@code TYPE_FOK_BUDGET}.
     * @return exchange-core's order type.
     * @throws IllegalArgumentException for any other code.
     */
    public static OrderType orderType(final byte orderType)
    {
        return switch (orderType)
        {
            case ExchangeCoreCommands.TYPE_GTC -> OrderType.GTC;
            case ExchangeCoreCommands.TYPE_IOC -> OrderType.IOC;
            case ExchangeCoreCommands.TYPE_FOK_BUDGET -> OrderType.FOK_BUDGET;
            default -> throw new IllegalArgumentException("not a PLACE order type: " + orderType);
        };
    }
}
