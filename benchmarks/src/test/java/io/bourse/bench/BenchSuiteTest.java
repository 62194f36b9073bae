package io.bourse.bench;

import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The whole suite in a tiny mode (a generated command file, low rates, half-second steps) into a report directory. */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BenchSuiteTest
{
    private static final int SETUP_ORDERS = 20;
    private static final int BENCH_PAIRS = 200;

    @TempDir
    Path dir;

    @Test
    void shouldWriteTablesHistogramsAndPlotsWhenTheSuiteRunsInATinyMode() throws IOException
    {
        final Path commands = dir.resolve("commands.csv");
        Files.writeString(commands, crossingStream(), StandardCharsets.US_ASCII);
        final Path reportDir = dir.resolve("report");
        final GatewayBenchOptions gateway = new GatewayBenchOptions(List.of(1_000L, 2_000L), 2, 1, 0.2, 0.3,
            "backoff", ThreadLayout.SHARED, ThreadingMode.SHARED, reportDir);
        final SuiteOptions options = new SuiteOptions(
            reportDir,
            new BenchOptions(commands, 0, 2, null),
            new EngineRampOptions(commands, List.of(200L, 400L), 0.5, 0, "backoff", ThreadingMode.SHARED, "none",
                "YIELDING"),
            gateway,
            List.of(1_000L, 2_000L),
            new FanoutBenchOptions(1, 3, 0.2, 0.3, 1, 1, "backoff", 0, reportDir),
            new EndToEndBenchOptions(List.of(1_000L, 2_000L), 2, 0.2, 0.3, reportDir),
            Map.of("in-process", (progress) ->
            {
                final InProcessExchange exchange = InProcessExchange.launch(gateway, true);
                return new ExchangeTarget.Running(exchange.target("the test's"), exchange);
            }),
            "bourse bench --test");
        final ByteArrayOutputStream console = new ByteArrayOutputStream();

        final Path report = BenchSuite.run(options, new PrintStream(console, true, StandardCharsets.UTF_8));

        assertThat(report).isEqualTo(reportDir.resolve(BenchSuite.REPORT));
        final String markdown = Files.readString(report);
        assertThat(markdown).contains(
            "Command line: `bourse bench --test`", "machine: ", "jvm: ", "Threads: 1 client",
            "| p50, us | p90, us | p99, us | p99.9, us | p99.99, us | max, us |",
            "| Bourse", "| ratio Bourse", "| TCP floor | 1,000 |", "| gateway | 2,000 |", "| ratio gateway / floor |",
            "| path | rate/s | achieved/s | missing | errors | p50, us |",
            "| exchange, path | rate/s | achieved/s | missing | errors | p50, us |", "Errors: answers other than",
            "Missing: orders still not sent 1 s after the step's schedule ended",
            "| fanout | 1,000 |", "| fanout | 2,000 |", "| FIX Antenna fan-out (seeds) |",
            "| ratio fanout 2,000/s / FIX Antenna |",
            "![engine latency](engine-latency.png)", "![fanout throughput](fanout-throughput.png)",
            "- in-process: the test's", "| in-process OUCH round trip | 1,000 |", "| in-process end to end | 2,000 |", "Full report: [e2e-in-process.txt](e2e-in-process.txt)",
            "![e2e latency](e2e-latency.png)");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains(
            "[1/5] engine iteration 2/2:", "[3/5] gateway rate 2,000/s:", "[4/5] fanout all reading:",
            "[5/5] e2e-in-process in-process rate 2,000/s:", "suite done");
        assertThat(markdown).contains("## Engine ramp", "|rate|50.0%|90.0%|95.0%|99.0%|99.9%|99.99%|worst|", "| 200|");
        assertThat(reportDir.resolve("ramp-200.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("e2e-in-process-2000.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("gateway-2000.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("floor-1000.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("fanout-2000-all-reading.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("engine-Bourse-MatchingEngine.hgrm")).isNotEmptyFile();
        assertThat(reportDir.resolve("engine-exchange-core-OrderBookDirectImpl.hgrm")).isNotEmptyFile();
        for (final String text : List.of("engine", "ramp", "gateway", "fanout", "e2e-in-process"))
        {
            assertThat(reportDir.resolve(text + ".txt")).isNotEmptyFile();
        }
        for (final String benchmark : List.of("engine", "ramp", "gateway", "fanout", "e2e"))
        {
            for (final String plot : List.of("-latency.png", "-throughput.png"))
            {
                final BufferedImage image = ImageIO.read(reportDir.resolve(benchmark + plot).toFile());
                assertThat(image).as(benchmark + plot).isNotNull();
                assertThat(image.getWidth()).isEqualTo(LatencyPlots.WIDTH);
                assertThat(image.getHeight()).isEqualTo(LatencyPlots.HEIGHT);
            }
        }
    }

    @Test
    void shouldReportTheBenchmarksThatFailAsNotMeasuredAndStillWriteTheRest() throws IOException
    {
        final Path commands = dir.resolve("commands.csv");
        Files.writeString(commands, "not,a,command,file\n", StandardCharsets.US_ASCII);
        final Path reportDir = dir.resolve("report");
        final GatewayBenchOptions gateway = new GatewayBenchOptions(List.of(1_000L), 2, 1, 0.1, 0.2,
            "backoff", ThreadLayout.SHARED, ThreadingMode.SHARED, reportDir);
        final SuiteOptions options = new SuiteOptions(
            reportDir,
            new BenchOptions(commands, 0, 1, null),
            null,
            gateway,
            List.of(1_000L),
            new FanoutBenchOptions(1, 2, 0.1, 0.2, 1, 1, "backoff", 0, reportDir),
            new EndToEndBenchOptions(List.of(1_000L), 1, 0.1, 0.2, reportDir),
            Map.of("unstartable", (progress) ->
            {
                throw new IllegalStateException("port 15000 is taken");
            }),
            "bourse bench --test");
        final ByteArrayOutputStream console = new ByteArrayOutputStream();

        assertThatThrownBy(() -> BenchSuite.run(options, new PrintStream(console, true, StandardCharsets.UTF_8)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("not measured: engine (")
            .hasMessageContaining("; e2e-unstartable (port 15000 is taken); the rest is in " +
                reportDir.resolve(BenchSuite.REPORT));

        final String markdown = Files.readString(reportDir.resolve(BenchSuite.REPORT));
        assertThat(markdown).contains("## engine: not measured", "(the stack trace is in [engine.txt](engine.txt))",
            "| gateway | 1,000 |", "| fanout | 1,000 |", "- unstartable: not measured: port 15000 is taken",
            "Total run time").doesNotContain("## Engine: matching core");
        assertThat(Files.readString(reportDir.resolve("engine.txt"))).contains("\tat io.bourse.bench.");
        assertThat(Files.readString(reportDir.resolve("e2e-unstartable.txt"))).contains("port 15000 is taken");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("[1/4] engine not measured: ",
            "[4/4] e2e-unstartable not measured: port 15000 is taken", "suite done");
        assertThat(reportDir.resolve("gateway-1000.hgrm")).isNotEmptyFile();
        assertThatThrownBy(options::validate).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("--report-dir holds an earlier report");
    }

    @Test
    void shouldLeaveTheEngineOutWhenThereIsNoCommandFile()
    {
        final SuiteOptions options =
            SuiteOptions.of(true, dir.resolve("absent.csv.gz"), dir, Map.of(), "bourse bench");

        assertThat(options.engine()).isNull();
        assertThat(options.ramp()).isNull();
        assertThat(options.gateway().layout()).isEqualTo(ThreadLayout.SHARED);
        assertThat(options.gateway().hgrmDir()).isEqualTo(dir);
        assertThat(options.fanoutAt(5_000).subscribers()).isEqualTo(100);
    }

    /** SETUP: a ladder of resting orders; BENCH: pairs of a resting buy and a sell that crosses it. */
    private static String crossingStream()
    {
        final StringBuilder sb = new StringBuilder("seq,phase,cmd,order_id,uid,side,price,size,order_type," +
            "reserve_price\n");
        int seq = 0;
        long id = 1;
        for (int i = 0; i < SETUP_ORDERS; i++)
        {
            final boolean buy = 0 == (i & 1);
            sb.append(seq++).append(",SETUP,PLACE,").append(id++).append(",1,").append(buy ? "BUY," : "SELL,")
                .append(buy ? 900 - i : 1_100 + i).append(",5,GTC,0\n");
        }
        for (int i = 0; i < BENCH_PAIRS; i++)
        {
            sb.append(seq++).append(",BENCH,PLACE,").append(id++).append(",2,BUY,1000,3,GTC,0\n");
            sb.append(seq++).append(",BENCH,PLACE,").append(id++).append(",3,SELL,1000,3,IOC,0\n");
        }
        return sb.toString();
    }
}
