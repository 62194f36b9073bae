package io.bourse.itch;

import com.paritytrading.juncture.nasdaq.itch50.ITCH50;
import io.bourse.common.config.SymbolDirectory;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.bourse.itch.ItchTranslatorTest.hex;
import static org.assertj.core.api.Assertions.assertThat;

class ItchReferenceDataTest
{
    private static final long T = 34_200_123_456_789L;
    private static final String TIMESTAMP = "1F1A D635BD15";

    private final ItchReferenceData referenceData = new ItchReferenceData(SymbolDirectory.parse("AAPL@0,MSFT@1"));

    @Test
    void shouldEncodeStartOfMessagesSystemEvent()
    {
        final byte[] bytes = bytes(referenceData.systemEvent(ITCH50.EVENT_CODE_START_OF_MESSAGES, T));

        assertThat(bytes).hasSize(ItchReferenceData.SYSTEM_EVENT_LENGTH).hasSize(12);
        // Type, Stock Locate, Tracking Number, Timestamp, Event Code
        assertThat(bytes).isEqualTo(hex("53 0000 0000 " + TIMESTAMP + " 4F"));
    }

    @Test
    void shouldEncodeOneStockDirectoryPerSymbolInLocateOrder()
    {
        assertThat(referenceData.symbolCount()).isEqualTo(2);
        final byte[] aapl = bytes(referenceData.stockDirectory(0, T));
        final byte[] msft = bytes(referenceData.stockDirectory(1, T));

        assertThat(aapl).hasSize(ItchReferenceData.STOCK_DIRECTORY_LENGTH).hasSize(39);
        // Type, Stock Locate, Tracking Number, Timestamp, Stock, Market Category 'Q', Financial Status 'N',
        // Round Lot Size 100, Round Lots Only 'N', Issue Classification 'C', Issue Sub-Type "Z ", Authenticity 'T',
        // Short Sale Threshold 'N', IPO Flag 'N', LULD Tier '1', ETP Flag 'N', ETP Leverage Factor 0, Inverse 'N'
        assertThat(aapl).isEqualTo(hex("52 0001 0000 " + TIMESTAMP + " 4141504C20202020 51 4E 00000064 4E 43 5A20 " +
            "54 4E 4E 31 4E 00000000 4E"));
        assertThat(msft).isEqualTo(hex("52 0002 0000 " + TIMESTAMP + " 4D53465420202020 51 4E 00000064 4E 43 5A20 " +
            "54 4E 4E 31 4E 00000000 4E"));
    }

    @Test
    void shouldEncodeTheTradingActionSpinOneTradingStockTradingActionPerSymbol()
    {
        final byte[] aapl = bytes(referenceData.stockTradingAction(0, T));
        final byte[] msft = bytes(referenceData.stockTradingAction(1, T));

        assertThat(aapl).hasSize(ItchTranslator.STOCK_TRADING_ACTION_LENGTH).hasSize(25);
        // ITCH 5.0 §4.2.2: Type, Stock Locate, Tracking Number, Timestamp, Stock, Trading State 'T', Reserved,
        // Reason (none: spaces)
        assertThat(aapl).isEqualTo(hex("48 0001 0000 " + TIMESTAMP + " 4141504C20202020 54 20 20202020"));
        assertThat(msft).isEqualTo(hex("48 0002 0000 " + TIMESTAMP + " 4D53465420202020 54 20 20202020"));
    }

    private static byte[] bytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
