package io.bourse.common.aeron;

import io.bourse.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StreamLayoutTest
{
    @Test
    void shouldGiveEachMarketDataFeedItsOwnStreamByDefault()
    {
        final StreamLayout layout = StreamLayout.fromSettings(new Settings(Map.of()));

        assertThat(layout.marketDataStreamId()).isEqualTo(3000);
        assertThat(layout.snapshotRequestStreamId()).isEqualTo(3001);
        assertThat(layout.depthStreamId()).isEqualTo(3002);
        assertThat(layout.bboStreamId()).isEqualTo(3003);
        assertThat(layout.tradesStreamId()).isEqualTo(3004);
        assertThat(layout.feedChannel()).isEqualTo(StreamLayout.FEED_CHANNEL_DEFAULT);
    }

    @Test
    void shouldRefuseTwoMarketDataStreamsOnOneStreamOfIpcWhateverTheirParameters()
    {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> StreamLayout.fromSettings(new Settings(Map.of("BOURSE_MD_BBO_STREAM", "3002"))))
            .withMessageContaining("market-data streams share stream 3002 on aeron:ipc?term-length=16777216");
        // The order feed's 64 MiB terms and the depth feed's 16 MiB terms: still one IPC stream 3000.
        assertThatIllegalArgumentException()
            .isThrownBy(() -> StreamLayout.fromSettings(new Settings(Map.of("BOURSE_MD_DEPTH_STREAM", "3000"))))
            .withMessageContaining("stream 3000");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> StreamLayout.fromSettings(new Settings(Map.of("BOURSE_MD_TRADES_STREAM", "3001"))))
            .withMessageContaining("stream 3001");
    }

    @Test
    void shouldAcceptOneStreamIdOnTwoUdpEndpoints()
    {
        final StreamLayout layout = StreamLayout.fromSettings(new Settings(Map.of(
            "BOURSE_MD_CHANNEL", "aeron:udp?endpoint=127.0.0.1:40456",
            "BOURSE_MD_FEED_CHANNEL", "aeron:udp?endpoint=127.0.0.1:40457",
            "BOURSE_MD_DEPTH_STREAM", "3000")));

        assertThat(layout.depthStreamId()).isEqualTo(layout.marketDataStreamId());
        assertThatIllegalArgumentException()
            .isThrownBy(() -> StreamLayout.fromSettings(new Settings(Map.of(
                "BOURSE_MD_CHANNEL", "aeron:udp?endpoint=127.0.0.1:40456|term-length=65536",
                "BOURSE_MD_FEED_CHANNEL", "aeron:udp?endpoint=127.0.0.1:40456",
                "BOURSE_MD_DEPTH_STREAM", "3000"))));
    }

    @Test
    void shouldChangeOnlyTheNamedPartOfTheLayout()
    {
        final StreamLayout layout = StreamLayout.fromSettings(new Settings(Map.of()));
        final String shortTerms = "aeron:ipc?term-length=65536";

        final StreamLayout events = layout.withEventChannel(shortTerms);
        final StreamLayout marketData = layout.withMarketDataChannel(shortTerms);
        final StreamLayout directory = layout.withAeronDirectory("/dev/shm/other");

        assertThat(events.eventChannel()).isEqualTo(shortTerms);
        assertThat(events.withEventChannel(layout.eventChannel())).isEqualTo(layout);
        assertThat(marketData.marketDataChannel()).isEqualTo(shortTerms);
        assertThat(marketData.withMarketDataChannel(layout.marketDataChannel())).isEqualTo(layout);
        assertThat(directory.aeronDirectoryName()).isEqualTo("/dev/shm/other");
        assertThat(directory.withAeronDirectory(layout.aeronDirectoryName())).isEqualTo(layout);
    }
}
