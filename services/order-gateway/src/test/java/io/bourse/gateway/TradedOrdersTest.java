package io.bourse.gateway;

import org.junit.jupiter.api.Test;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
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

    /**
     * At the day's end the pages go back at once: the direct memory in use drops by all of them without a garbage
     * collection, no order is found any more, and a new one is recorded on new pages.
     */
    @Test
    void shouldFreeEveryPageAtOnceAndFindNoOrderAfter()
    {
        final TradedOrders traded = new TradedOrders();
        final int perSession = TradedOrders.PAGE_CAPACITY + 3;
        for (int count = 1; count <= perSession; count++)
        {
            for (int sessionIndex = 1; sessionIndex <= 3; sessionIndex++)
            {
                traded.onExecuted(order(sessionIndex, count));
            }
        }
        final long pagesBytes = traded.directBytes();
        assertThat(pagesBytes).as("4 pages of records, 2 pages of slots per session")
            .isEqualTo(4L * TradedOrders.PAGE_CAPACITY * TradedOrders.RECORD_LENGTH +
                3 * 2L * TradedOrders.PAGE_CAPACITY * Integer.BYTES);
        final long usedBefore = directMemoryUsed();

        traded.free();

        assertThat(usedBefore - directMemoryUsed()).as("direct memory given back").isGreaterThanOrEqualTo(pagesBytes);
        assertThat(traded.directBytes()).isZero();
        assertThat(traded.find(clientOrderId(1, 1))).isEqualTo(TradedOrders.MISSING);
        assertThat(traded.find(clientOrderId(3, perSession))).isEqualTo(TradedOrders.MISSING);

        traded.onExecuted(order(2, 7));
        final int index = traded.find(clientOrderId(2, 7));
        assertThat(index).isZero();
        assertThat(traded.tokens(index).getStringWithoutLengthAscii(TradedOrders.tokenOffset(index), 14))
            .isEqualTo(token(2, 7));
    }

    private static long directMemoryUsed()
    {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter((pool) -> "direct".equals(pool.getName())).findFirst().orElseThrow().getMemoryUsed();
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
