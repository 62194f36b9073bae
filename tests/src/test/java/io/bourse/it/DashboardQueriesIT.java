package io.bourse.it;

import com.github.dockerjava.api.model.HostConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.ToStringConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every query of every Grafana dashboard in {@code dashboards/bourse} against the metrics the services really export:
 * the whole exchange runs in containers ({@link ExchangeContainers#withLoad()}: every service and the simulator sending
 * orders), a real Prometheus from {@code PROMETHEUS_IMAGE} (the compose file's image; {@code .env} names a local one
 * on air-gapped hosts) scrapes them with the compose stack's own {@code deploy/prometheus.yml}, and each panel
 * target's PromQL, with Grafana's interval variables replaced by fixed windows, must return at least one series with
 * a number (not NaN, as a latency quantile of an interval without samples is; above 0 for a latency quantile, which
 * the load makes) from Prometheus's HTTP API. A panel that names a metric, a label or a job that does not exist, or
 * whose series are all empty, fails the test with the dashboard, the panel title and the query. So does a panel that
 * takes the {@code rate()}, {@code irate()} or {@code increase()} of a metric that the scraped services do not expose
 * as a counter, histogram or summary (Prometheus's {@code /api/v1/metadata}). The other way round, every {@code
 * bourse_*} metric family a scraped service exports must be queried by some panel: nothing counted goes unshown.
 * Needs Docker.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
final class DashboardQueriesIT
{
    /** The compose file's default when {@code PROMETHEUS_IMAGE} is not set. */
    private static final String PROMETHEUS_IMAGE_DEFAULT = "prom/prometheus:v2.53.0";
    private static final String PROMETHEUS_URL = "http://localhost:9090";
    private static final String DATASOURCE_UID = "prometheus";
    /**
     * Grafana's interval variables and the fixed windows that replace them: 20 s spans ten scrapes of
     * deploy/prometheus.yml (every 2 s), the $__rate_interval Grafana uses at a time range of a few hours; at its
     * default 15 minutes it is 8 s (four scrape intervals of the datasource's 2 s).
     */
    private static final Map<String, String> GRAFANA_VARIABLES = Map.of(
        "$__rate_interval", "20s",
        "$__interval", "2s",
        "$__range", "1m");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?[A-Za-z_]\\w*}?");
    /** A PromQL function that only counters make sense of, and the metric of its range vector. */
    private static final Pattern RATE_OF_METRIC =
        Pattern.compile("\\b(rate|irate|increase)\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)");
    /** Metric types whose samples only grow (histograms and summaries in their _count, _sum and _bucket series). */
    private static final Set<String> COUNTING_TYPES = Set.of("counter", "histogram", "summary");
    /**
     * The rate, over every label, of a counter of the flow of orders and market data: under load at least one of its
     * series is above 0; at 0 it would be a counter nothing increments (errors, rejects and drops may be 0).
     */
    private static final Pattern FLOW = Pattern.compile("rate\\(bourse_(gateway_messages_(in|out)|" +
        "engine_(commands|events)|md_(events_in|messages_out|mold_(packets|messages))|fanout_messages_(in|out)|" +
        "simulator_(orders_sent|messages_in|md_messages))_total\\[");
    /** A name of one of Bourse's own metrics, as a query or Prometheus's metadata writes it. */
    private static final Pattern BOURSE_METRIC = Pattern.compile("\\bbourse_[a-z0-9_]+");
    /** Suffixes of a sample's name that its metric family's name does not carry in OpenMetrics. */
    private static final List<String> FAMILY_SUFFIXES = List.of("_total", "_count", "_sum", "_bucket");
    /** Scrapes of every target before the queries run: enough samples for rate() over the 20 s window. */
    private static final int SCRAPES = 8;
    /** Instant queries of a target whose series are all NaN before it fails, one scrape interval apart. */
    private static final int NUMBER_ATTEMPTS = 3;
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(60);
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** deploy/prometheus.yml's scrape interval. */
    private static final long SCRAPE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(2);

    @RegisterExtension
    static final ExchangeContainers EXCHANGE = ExchangeContainers.withLoad();

    private static GenericContainer<?> prometheus;
    private static final ToStringConsumer PROMETHEUS_LOG = new ToStringConsumer();

    @BeforeAll
    static void startPrometheus()
    {
        final String image = System.getenv().getOrDefault("PROMETHEUS_IMAGE", PROMETHEUS_IMAGE_DEFAULT);
        prometheus = new GenericContainer<>(DockerImageName.parse(image))
            .withCreateContainerCmdModifier((cmd) ->
            {
                final HostConfig hostConfig = null == cmd.getHostConfig() ? new HostConfig() : cmd.getHostConfig();
                cmd.withHostConfig(hostConfig.withNetworkMode("host"));
            })
            .withCopyFileToContainer(
                MountableFile.forHostPath(BourseImage.repositoryRoot().resolve("deploy/prometheus.yml")),
                "/etc/prometheus/prometheus.yml")
            .withCommand(
                "--config.file=/etc/prometheus/prometheus.yml",
                "--storage.tsdb.path=/prometheus",
                "--web.listen-address=:9090")
            .withLogConsumer(PROMETHEUS_LOG)
            .waitingFor(Wait.forLogMessage("(?s).*Server is ready to receive web requests.*", 1)
                .withStartupTimeout(Duration.ofSeconds(60)));
        prometheus.start();
    }

    @AfterAll
    static void stopPrometheus()
    {
        if (null != prometheus)
        {
            prometheus.stop();
        }
    }

    @Test
    void shouldReturnSeriesForEveryPanelQueryOfEveryDashboardWhenTheExchangeRunsUnderLoad() throws Exception
    {
        final List<Target> targets = dashboardTargets();
        try (HttpClient http = HttpClient.newHttpClient())
        {
            awaitScrapes(http);

            final List<String> empty = new ArrayList<>();
            for (final Target target : targets)
            {
                // Under load every latency and flow is above 0: a panel of one at 0 shows a metric nothing records.
                final Predicate<Object> drawn = target.expr().contains("_seconds{quantile") ||
                    FLOW.matcher(target.expr()).find() ? DashboardQueriesIT::hasPositiveNumber :
                    DashboardQueriesIT::hasNumber;
                List<Object> series = query(http, target.promql());
                // A latency quantile is NaN for a scrape interval without samples: a stall may empty one interval.
                for (int attempt = 1; attempt < NUMBER_ATTEMPTS && !series.isEmpty() &&
                    series.stream().noneMatch(drawn); attempt++)
                {
                    LockSupport.parkNanos(SCRAPE_INTERVAL_NS);
                    series = query(http, target.promql());
                }
                if (series.isEmpty())
                {
                    empty.add(target + " (no series)");
                }
                else if (series.stream().noneMatch(drawn))
                {
                    empty.add(target + " (only NaN or infinite values, or latencies or flows of 0: " + series + ")");
                }
            }

            assertThat(targets).as("panel targets").isNotEmpty();
            assertThat(empty)
                .as("panel queries that returned no series, or none with a number (dashboard, panel, refId: query)")
                .isEmpty();
        }
    }

    @Test
    void shouldTakeTheRateOfCountersOnly() throws Exception
    {
        final List<Target> targets = dashboardTargets();
        try (HttpClient http = HttpClient.newHttpClient())
        {
            awaitScrapes(http);
            final Map<String, Object> metadata = Json.object(get(http, "/api/v1/metadata"));

            final List<String> wrong = new ArrayList<>();
            int rates = 0;
            for (final Target target : targets)
            {
                final Matcher matcher = RATE_OF_METRIC.matcher(target.expr());
                while (matcher.find())
                {
                    rates++;
                    final String metric = matcher.group(2);
                    final String type = metricType(metadata, metric);
                    if (!COUNTING_TYPES.contains(type))
                    {
                        wrong.add(target + " (" + matcher.group(1) + " of " + metric + ", a " + type + ")");
                    }
                }
            }

            assertThat(rates).as("rate(), irate() and increase() calls in the dashboards").isPositive();
            assertThat(wrong)
                .as("panel queries that take the rate of a metric the services do not export as a counter, " +
                    "histogram or summary (a gauge's rate is meaningless and Prometheus flags it)")
                .isEmpty();
        }
    }

    @Test
    void shouldShowEveryBourseMetricTheServicesExportOnADashboard() throws Exception
    {
        final Set<String> shown = new HashSet<>();
        for (final Target target : dashboardTargets())
        {
            final Matcher matcher = BOURSE_METRIC.matcher(target.expr());
            while (matcher.find())
            {
                shown.add(familyName(matcher.group()));
            }
        }
        try (HttpClient http = HttpClient.newHttpClient())
        {
            awaitScrapes(http);
            final Set<String> exported = new HashSet<>();
            for (final String metric : Json.object(get(http, "/api/v1/metadata")).keySet())
            {
                if (BOURSE_METRIC.matcher(metric).matches())
                {
                    exported.add(familyName(metric));
                }
            }

            assertThat(exported).as("bourse_* metric families the scraped services export").isNotEmpty();
            assertThat(exported.stream().filter((family) -> !shown.contains(family)).sorted().toList())
                .as("bourse_* metric families the services export that no panel of dashboards/bourse queries: " +
                    "what a service counts but no dashboard shows")
                .isEmpty();
        }
    }

    @Test
    void shouldGiveEveryDashboardItsOwnUidAndEveryPanelTheProvisionedDatasourceAndAQuery() throws IOException
    {
        final Set<String> uids = new HashSet<>();
        final List<String> wrong = new ArrayList<>();
        for (final Path file : dashboardFiles())
        {
            final Map<String, Object> dashboard = Json.object(Json.parse(Files.readString(file)));
            if (!uids.add(String.valueOf(dashboard.get("uid"))))
            {
                wrong.add(file.getFileName() + ": uid " + dashboard.get("uid") + " used twice");
            }
            final Set<Object> panelIds = new HashSet<>();
            for (final Map<String, Object> panel : panels(dashboard))
            {
                if (!panelIds.add(panel.get("id")))
                {
                    wrong.add(file.getFileName() + ": panel id " + panel.get("id") + " used twice");
                }
                if ("row".equals(panel.get("type")))
                {
                    continue;
                }
                if (!isProvisionedDatasource(panel.get("datasource")))
                {
                    wrong.add(file.getFileName() + " › " + panel.get("title") + ": datasource " +
                        panel.get("datasource"));
                }
                if (Json.array(panel.get("targets")).stream()
                    .noneMatch((target) -> Json.object(target).get("expr") instanceof String))
                {
                    wrong.add(file.getFileName() + " › " + panel.get("title") + ": no PromQL target");
                }
            }
        }

        assertThat(uids).as("dashboard uids").hasSizeGreaterThanOrEqualTo(7);
        assertThat(wrong).isEmpty();
    }

    /** Polls until Prometheus has scraped every target of deploy/prometheus.yml {@value #SCRAPES} times, all up. */
    private static void awaitScrapes(final HttpClient http) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + SCRAPE_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() - deadlineNs < 0)
        {
            final List<Object> down = query(http, "up == 0");
            final List<Object> scraped = query(http, "min(count_over_time(up[1m])) >= " + SCRAPES);
            final List<Object> targets = query(http, "count(up)");
            last = "down " + down + ", scraped " + scraped + ", targets " + targets;
            if (down.isEmpty() && !scraped.isEmpty() && !targets.isEmpty())
            {
                return;
            }
            LockSupport.parkNanos(POLL_NS);
        }
        throw new AssertionError("Prometheus did not scrape every target " + SCRAPES + " times within " +
            SCRAPE_TIMEOUT + ": " + last + "; its log:\n" + PROMETHEUS_LOG.toUtf8String());
    }

    /**
     * Runs an instant query now.
     *
     * @return the series of the result (the elements of {@code data.result}).
     * @throws AssertionError when Prometheus refuses the query (a PromQL error), naming the query.
     */
    private static List<Object> query(final HttpClient http, final String promql)
        throws IOException, InterruptedException
    {
        final HttpResponse<String> response = http.send(
            HttpRequest.newBuilder(URI.create(PROMETHEUS_URL + "/api/v1/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        final Map<String, Object> body = Json.object(Json.parse(response.body()));
        if (200 != response.statusCode() || !"success".equals(body.get("status")))
        {
            throw new AssertionError("Prometheus refused " + promql + ": " + response.statusCode() + " " +
                body.get("errorType") + " " + body.get("error"));
        }
        return Json.array(Json.object(body.get("data")).get("result"));
    }

    /**
     * @return the {@code data} of a GET of Prometheus's HTTP API.
     * @throws AssertionError when Prometheus answers with an error.
     */
    private static Object get(final HttpClient http, final String path) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = http.send(
            HttpRequest.newBuilder(URI.create(PROMETHEUS_URL + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        final Map<String, Object> body = Json.object(Json.parse(response.body()));
        if (200 != response.statusCode() || !"success".equals(body.get("status")))
        {
            throw new AssertionError("Prometheus refused GET " + path + ": " + response.statusCode() + " " +
                body.get("errorType") + " " + body.get("error"));
        }
        return body.get("data");
    }

    /**
     * @param metadata Prometheus's {@code /api/v1/metadata}: metric family name to the list of its metadata, one per
     *                 distinct type and help text among the scraped targets.
     * @param metric   the name of a metric as a query writes it, e.g. {@code bourse_gateway_orders_total}.
     * @return the type of its family as the targets exposed it ({@code counter}, {@code gauge}, ..., several joined
     * by '/' when targets disagree), found by the name, else by the name without a suffix of
     * {@link #FAMILY_SUFFIXES} (OpenMetrics names a counter's family without {@code _total}); {@code "metric no
     * target exposes"} when neither is known.
     */
    private static String metricType(final Map<String, Object> metadata, final String metric)
    {
        Object entries = metadata.get(metric);
        for (int i = 0; null == entries && i < FAMILY_SUFFIXES.size(); i++)
        {
            final String suffix = FAMILY_SUFFIXES.get(i);
            if (metric.endsWith(suffix))
            {
                entries = metadata.get(metric.substring(0, metric.length() - suffix.length()));
            }
        }
        if (null == entries)
        {
            return "metric no target exposes";
        }
        return String.join("/", Json.array(entries).stream()
            .map((entry) -> String.valueOf(Json.object(entry).get("type"))).distinct().sorted().toList());
    }

    /**
     * @param metric the name of a metric as a query or Prometheus's metadata writes it.
     * @return the name of its family: without a suffix of {@link #FAMILY_SUFFIXES}, e.g. {@code
     * bourse_gateway_rejects} for {@code bourse_gateway_rejects_total}.
     */
    private static String familyName(final String metric)
    {
        for (final String suffix : FAMILY_SUFFIXES)
        {
            if (metric.endsWith(suffix))
            {
                return metric.substring(0, metric.length() - suffix.length());
            }
        }
        return metric;
    }

    /**
     * @param series an element of an instant query's {@code data.result}: {@code {"metric": {...}, "value": [time,
     *               "value"]}}, the value as Prometheus formats it ({@code NaN}, {@code +Inf}, {@code -Inf} or a
     *               number).
     * @return true when the value is a finite number: a panel draws it.
     */
    private static boolean hasNumber(final Object series)
    {
        final String value = String.valueOf(Json.array(Json.object(series).get("value")).get(1));
        return !"NaN".equals(value) && !value.endsWith("Inf");
    }

    /** @return true when the value is a finite number above 0. */
    private static boolean hasPositiveNumber(final Object series)
    {
        return hasNumber(series) &&
            Double.parseDouble(String.valueOf(Json.array(Json.object(series).get("value")).get(1))) > 0;
    }

    /** @return every target with a PromQL expression of every panel, rows' nested panels included, of every file. */
    private static List<Target> dashboardTargets() throws IOException
    {
        final List<Target> targets = new ArrayList<>();
        for (final Path file : dashboardFiles())
        {
            final Map<String, Object> dashboard = Json.object(Json.parse(Files.readString(file)));
            for (final Map<String, Object> panel : panels(dashboard))
            {
                for (final Object element : Json.array(panel.get("targets")))
                {
                    final Map<String, Object> target = Json.object(element);
                    if (target.get("expr") instanceof String expr)
                    {
                        targets.add(new Target(file.getFileName().toString(), String.valueOf(panel.get("title")),
                            String.valueOf(target.get("refId")), expr, substituteVariables(expr)));
                    }
                }
            }
        }
        return targets;
    }

    private static List<Path> dashboardFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(BourseImage.repositoryRoot().resolve("dashboards/bourse")))
        {
            return files.filter((file) -> file.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** @return the dashboard's panels and the panels nested in its rows, in document order. */
    private static List<Map<String, Object>> panels(final Map<String, Object> dashboard)
    {
        final List<Map<String, Object>> panels = new ArrayList<>();
        for (final Object element : Json.array(dashboard.get("panels")))
        {
            final Map<String, Object> panel = Json.object(element);
            panels.add(panel);
            for (final Object nested : Json.array(panel.get("panels")))
            {
                panels.add(Json.object(nested));
            }
        }
        return panels;
    }

    private static boolean isProvisionedDatasource(final Object datasource)
    {
        return datasource instanceof Map<?, ?> map && DATASOURCE_UID.equals(map.get("uid")) &&
            "prometheus".equals(map.get("type"));
    }

    /**
     * @return the expression with Grafana's interval variables replaced by {@link #GRAFANA_VARIABLES}.
     * @throws IllegalArgumentException on any other variable: a dashboard variable this test does not know.
     */
    private static String substituteVariables(final String expr)
    {
        final Matcher matcher = VARIABLE.matcher(expr);
        final StringBuilder result = new StringBuilder();
        while (matcher.find())
        {
            final String name = matcher.group().replace("{", "").replace("}", "");
            final String window = GRAFANA_VARIABLES.get(name);
            if (null == window)
            {
                throw new IllegalArgumentException("variable " + matcher.group() + " unknown to this test in " + expr);
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(window));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** One query of a panel, as written in the dashboard and as sent to Prometheus. */
    private record Target(String dashboard, String panel, String refId, String expr, String promql)
    {
        @Override
        public String toString()
        {
            return dashboard + " › " + panel + " › " + refId + ": " + expr;
        }
    }
}
