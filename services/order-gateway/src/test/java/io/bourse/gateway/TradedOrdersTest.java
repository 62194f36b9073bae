package io.bourse.gateway;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class TradedOrdersTest
{
    private static final int GATEWAY_ID = 1;

    @Test
    void shouldFindEveryTradedOrderOnceWhenManySessionsTradeAcrossPages()
    {
        final TradedOrders traded = new TradedOrders();
        final int perSession = TradedOrders.PAGE_CAPACITY + 3;
        for (int count = 1; count <= perSession; count += 2)
        {
            for (int sessionIndex = 1; sessionIndex <= 3; sessionIndex++)
            {
                final OrderState order = order(sessionIndex, count);
                traded.onExecuted(order);
                traded.onExecuted(order);
            }
        }

        for (int count = 1; count <= perSession; count++)
        {
            for (int sessionIndex = 1; sessionIndex <= 3; sessionIndex++)
            {
                final int index = traded.find(clientOrderId(sessionIndex, count));
                if (0 == count % 2)
                {
                    assertThat(index).isEqualTo(TradedOrders.MISSING);
                    continue;
                }
                assertThat(index).isNotEqualTo(TradedOrders.MISSING);
                assertThat(traded.shardId(index)).isEqualTo(count % 4);
                assertThat(traded.tokens(index).getStringWithoutLengthAscii(TradedOrders.tokenOffset(index), 14))
                    .isEqualTo(token(sessionIndex, count));
            }
        }
        assertThat(traded.find(clientOrderId(3, (perSession + 1) * 4L))).isEqualTo(TradedOrders.MISSING);
        assertThat(traded.find(clientOrderId(9, 1))).isEqualTo(TradedOrders.MISSING);
    }

    private static OrderState order(final int sessionIndex, final long count)
    {
        final OrderState order = new OrderState();
        order.clientOrderId = clientOrderId(sessionIndex, count);
        order.shardId = (int)(count % 4);
        final byte[] token = token(sessionIndex, count).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(token, 0, order.token, 0, token.length);
        return order;
    }

    private static String token(final int sessionIndex, final long count)
    {
        return String.format("S%02dO%010d", sessionIndex, count);
    }

    private static long clientOrderId(final int sessionIndex, final long count)
    {
        return ((long)GATEWAY_ID << 56) | ((long)sessionIndex << 32) | count;
    }
}
