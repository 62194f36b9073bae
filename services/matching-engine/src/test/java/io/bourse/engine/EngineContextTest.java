package io.bourse.engine;

import io.bourse.common.aeron.StreamLayout;
import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.engine.match.SelfTradePrevention;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineContextTest
{
    private static EngineContext fromEnvironment(final Map<String, String> environment)
    {
        return EngineContext.fromSettings(new Settings(environment));
    }

    private static EngineContext concluded(final EngineContext ctx)
    {
        return ctx.streamLayout(StreamLayout.fromSettings(new Settings(Map.of())))
            .symbolDirectory(SymbolDirectory.parse("AAPL@0,MSFT@1"))
            .idleStrategy(NoOpIdleStrategy.INSTANCE)
            .conclude();
    }

    @Test
    void shouldHaveNoSelfTradePreventionAndNoBandsWhenNothingIsSet()
    {
        final EngineContext ctx = fromEnvironment(Map.of());

        assertThat(ctx.selfTradePrevention()).isEqualTo(SelfTradePrevention.NONE);
        assertThat(ctx.firmSelfTradePrevention()).isEmpty();
        assertThat(ctx.priceBands()).isEmpty();
    }

    @Test
    void shouldParseModesAndBandsWhenSet()
    {
        final EngineContext ctx = concluded(fromEnvironment(Map.of(
            "BOURSE_ENGINE_STP", "cancel_oldest",
            "BOURSE_ENGINE_STP_FIRMS", "FIRM:CANCEL_NEWEST, ABCD:DECREMENT",
            "BOURSE_ENGINE_PRICE_BANDS", "AAPL:1500000:1000,msft:4000000:0")));

        assertThat(ctx.selfTradePrevention()).isEqualTo(SelfTradePrevention.CANCEL_OLDEST);
        assertThat(ctx.firmSelfTradePrevention()).containsExactly(
            Map.entry("FIRM", SelfTradePrevention.CANCEL_NEWEST), Map.entry("ABCD", SelfTradePrevention.DECREMENT));
        assertThat(ctx.priceBands()).isEqualTo(List.of(
            new EngineContext.PriceBand("AAPL", 1_500_000, 1_000), new EngineContext.PriceBand("MSFT", 4_000_000, 0)));
    }

    @Test
    void shouldNameTheSettingWhenAModeOrBandIsMalformed()
    {
        assertThatThrownBy(() -> fromEnvironment(Map.of("BOURSE_ENGINE_STP", "SOMETIMES")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bourse.engine.stp: ");
        assertThatThrownBy(() -> fromEnvironment(Map.of("BOURSE_ENGINE_STP_FIRMS", "FIRM")))
            .hasMessageStartingWith("bourse.engine.stp.firms: expected FIRM:MODE");
        assertThatThrownBy(() -> fromEnvironment(Map.of("BOURSE_ENGINE_STP_FIRMS", "FIRM:NONE,FIRM:DECREMENT")))
            .hasMessageStartingWith("bourse.engine.stp.firms: firm FIRM given twice");
        assertThatThrownBy(() -> fromEnvironment(Map.of("BOURSE_ENGINE_PRICE_BANDS", "AAPL:15.00:10")))
            .hasMessageStartingWith("bourse.engine.price.bands: expected SYMBOL:REFERENCE_PRICE:BAND_BASIS_POINTS");
    }

    @Test
    void shouldNameTheSettingWhenConcludeFindsABadFirmOrBand()
    {
        assertThatThrownBy(() -> concluded(fromEnvironment(Map.of("BOURSE_ENGINE_STP_FIRMS", "TOOLONG:NONE"))))
            .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("bourse.engine.stp.firms: firm must");
        assertThatThrownBy(() -> concluded(fromEnvironment(Map.of("BOURSE_ENGINE_PRICE_BANDS", "IBM:1500000:10"))))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("bourse.engine.price.bands: IBM:1500000:10: symbol not in bourse.symbols");
        assertThatThrownBy(() -> concluded(fromEnvironment(Map.of("BOURSE_ENGINE_PRICE_BANDS", "AAPL:0:10"))))
            .hasMessageStartingWith("bourse.engine.price.bands: AAPL:0:10: reference price must be");
        assertThatThrownBy(() -> concluded(fromEnvironment(Map.of("BOURSE_ENGINE_PRICE_BANDS", "AAPL:1:10001"))))
            .hasMessageStartingWith("bourse.engine.price.bands: AAPL:1:10001: band must be 0 to 10000");
    }
}
