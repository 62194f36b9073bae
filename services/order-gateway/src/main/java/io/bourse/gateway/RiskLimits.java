package io.bourse.gateway;

import io.bourse.common.config.Settings;
import io.bourse.common.config.SymbolDirectory;
import io.bourse.common.config.Symbols;
import io.bourse.ouch.Ouch42;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The order gateway's pre-trade risk limits and per-user options: defaults for every user from settings, overridden
 * per user by the rows of a CSV file. Settings (system property, or the environment variable in upper case with
 * underscores), each 0 for no limit: {@value #MAX_ORDER_SHARES_PROP_NAME} (largest order in shares, rejected 'm'),
 * {@value #MAX_NOTIONAL_PROP_NAME} (largest price x shares in whole dollars, rejected 'n'),
 * {@value #MAX_OPEN_ORDERS_PROP_NAME} (orders a user may have open at once, rejected 'O'),
 * {@value #PRICE_BAND_BP_PROP_NAME} (price collar in basis points: a buy above, or a sell below, the symbol's reference
 * price by more than this is rejected 'X'), {@value #ORDERS_PER_SECOND_PROP_NAME} (Enter and Replace Orders per
 * second, a token bucket holding one second's worth, excess rejected 'O'; a limit a Replace Order breaks cancels its
 * order instead, as OUCH 4.2 &sect;2.2 answers a refused replace); {@value #CANCEL_ON_DISCONNECT_PROP_NAME}
 * ({@code true} or {@code false}, default true: a user's open orders are canceled when the session ends);
 * {@value #REFERENCE_PRICES_PROP_NAME} (collar reference prices before a symbol's first trade, {@code SYMBOL:PRICE}
 * items in 1/10000 dollars, e.g. {@code AAPL:1500000,MSFT:3000000}; after a trade the last trade price is the
 * reference); {@value #FILE_PROP_NAME} (default {@value #FILE_DEFAULT}; the default file may be absent).
 * <p>
 * The file has one row per user, {@code username,max_order_shares,max_notional,max_open_orders,price_band_bp,
 * orders_per_second,cancel_on_disconnect}; a header line and {@code #} comments are skipped, an empty field takes the
 * setting's value, {@code cancel_on_disconnect} is Y or N.
 * <p>
 * Firms have limits of their own, on top of their users', from the rows of a second CSV file, {@value
 * #FIRMS_FILE_PROP_NAME} (default {@value #FIRMS_FILE_DEFAULT}, which may be absent): {@code
 * firm,max_order_shares,max_notional,max_open_orders,price_band_bp,orders_per_second}, the firm being the OUCH 4.2 Firm
 * of the users' credentials (1 to 4 upper-case letters or digits). The order size, value and collar limits apply to
 * each order of any of the firm's users; the open orders and the orders per second count all of the firm's users on
 * this gateway together. A firm without a row, and an empty field, has no firm limit (0).
 */
public final class RiskLimits
{
    /** Setting name of the per-user limits file. */
    public static final String FILE_PROP_NAME = "bourse.gateway.risk.file";
    /** Default per-user limits file, relative to the working directory; may be absent. */
    public static final String FILE_DEFAULT = "deploy/gateway-risk.csv";
    /** Setting name of the per-firm limits file. */
    public static final String FIRMS_FILE_PROP_NAME = "bourse.gateway.risk.firms.file";
    /** Default per-firm limits file, relative to the working directory; may be absent. */
    public static final String FIRMS_FILE_DEFAULT = "deploy/gateway-firm-risk.csv";
    /** Setting name of the default largest order in shares. */
    public static final String MAX_ORDER_SHARES_PROP_NAME = "bourse.gateway.risk.max.order.shares";
    /** Setting name of the default largest order value in whole dollars. */
    public static final String MAX_NOTIONAL_PROP_NAME = "bourse.gateway.risk.max.notional";
    /** Setting name of the default most open orders per user. */
    public static final String MAX_OPEN_ORDERS_PROP_NAME = "bourse.gateway.risk.max.open.orders";
    /** Setting name of the default price collar in basis points of the reference price. */
    public static final String PRICE_BAND_BP_PROP_NAME = "bourse.gateway.risk.price.band.bp";
    /** Setting name of the default Enter and Replace Orders per second. */
    public static final String ORDERS_PER_SECOND_PROP_NAME = "bourse.gateway.risk.orders.per.second";
    /** Setting name of the default cancel-on-disconnect option. */
    public static final String CANCEL_ON_DISCONNECT_PROP_NAME = "bourse.gateway.cancel.on.disconnect";
    /** Setting name of the collar reference prices used before a symbol's first trade. */
    public static final String REFERENCE_PRICES_PROP_NAME = "bourse.gateway.risk.reference.prices";
    /** Largest configurable order value in dollars, so that it converts to 1/10000 dollars without overflow. */
    public static final long MAX_NOTIONAL_LIMIT = Long.MAX_VALUE / Ouch42.PRICE_SCALE;

    private static final int COLUMNS = 7;
    private static final int FIRM_COLUMNS = 6;
    private static final int MAX_BASIS_POINTS = 10_000;

    /** The order limits a user and a firm both have, each 0 for no limit. */
    public interface OrderLimits
    {
        /** @return largest order in shares. */
        long maxOrderShares();

        /** @return largest price x shares of an order, in whole dollars. */
        long maxNotional();

        /** @return most orders open at once (entered and not yet done). */
        long maxOpenOrders();

        /** @return collar half-width in basis points of the reference price, 0 to 10000. */
        int priceBandBasisPoints();

        /** @return Enter and Replace Orders per second, with a burst of one second's worth. */
        long ordersPerSecond();
    }

    /**
     * One user's limits, each 0 for no limit.
     *
     * @param maxOrderShares       largest order in shares.
     * @param maxNotional          largest price x shares of an order, in whole dollars.
     * @param maxOpenOrders        most orders open at once (entered and not yet done).
     * @param priceBandBasisPoints collar half-width in basis points of the reference price, 0 to 10000.
     * @param ordersPerSecond      Enter and Replace Orders per second, with a burst of one second's worth.
     * @param cancelOnDisconnect   true to cancel the user's open orders when the session ends.
     */
    public record UserLimits(
        long maxOrderShares,
        long maxNotional,
        long maxOpenOrders,
        int priceBandBasisPoints,
        long ordersPerSecond,
        boolean cancelOnDisconnect) implements OrderLimits
    {
        /**
         * @throws IllegalArgumentException naming the first value out of range.
         */
        public UserLimits
        {
            requireRanges(maxOrderShares, maxNotional, maxOpenOrders, priceBandBasisPoints, ordersPerSecond);
        }
    }

    /**
     * One firm's limits, each 0 for no limit.
     *
     * @param maxOrderShares       largest order in shares, of any of the firm's users.
     * @param maxNotional          largest price x shares of an order, in whole dollars.
     * @param maxOpenOrders        most orders of all the firm's users open at once on this gateway.
     * @param priceBandBasisPoints collar half-width in basis points of the reference price, 0 to 10000.
     * @param ordersPerSecond      Enter and Replace Orders per second of all the firm's users together, with a burst
     *                             of one second's worth.
     */
    public record FirmLimits(
        long maxOrderShares,
        long maxNotional,
        long maxOpenOrders,
        int priceBandBasisPoints,
        long ordersPerSecond) implements OrderLimits
    {
        /**
         * @throws IllegalArgumentException naming the first value out of range.
         */
        public FirmLimits
        {
            requireRanges(maxOrderShares, maxNotional, maxOpenOrders, priceBandBasisPoints, ordersPerSecond);
        }
    }

    /** No firm limit of any kind. */
    public static final FirmLimits NO_FIRM_LIMITS = new FirmLimits(0, 0, 0, 0, 0);

    /** No limit of any kind; cancel on disconnect on. */
    public static final UserLimits NO_LIMITS = new UserLimits(0, 0, 0, 0, 0, true);

    private final UserLimits defaults;
    private final Map<String, UserLimits> users;
    private final Map<Integer, FirmLimits> firms;
    private final Map<String, Long> referencePrices;

    private RiskLimits(
        final UserLimits defaults,
        final Map<String, UserLimits> users,
        final Map<Integer, FirmLimits> firms,
        final Map<String, Long> referencePrices)
    {
        this.defaults = defaults;
        this.users = users;
        this.firms = firms;
        this.referencePrices = referencePrices;
    }

    /** @return no limits for anyone, cancel on disconnect on, no reference prices. */
    public static RiskLimits none()
    {
        return new RiskLimits(NO_LIMITS, Map.of(), Map.of(), Map.of());
    }

    /**
     * @param settings where to read the settings.
     * @return the defaults from the settings, with the rows of the configured user and firm files.
     * @throws IllegalArgumentException naming the setting or the file line at fault, or a file that cannot be read
     *                                  (unless it is a default file and absent).
     */
    public static RiskLimits fromSettings(final Settings settings)
    {
        final UserLimits defaults;
        try
        {
            defaults = new UserLimits(
                settings.getLong(MAX_ORDER_SHARES_PROP_NAME, 0),
                settings.getLong(MAX_NOTIONAL_PROP_NAME, 0),
                settings.getLong(MAX_OPEN_ORDERS_PROP_NAME, 0),
                settings.getInt(PRICE_BAND_BP_PROP_NAME, 0),
                settings.getLong(ORDERS_PER_SECOND_PROP_NAME, 0),
                parseBoolean(CANCEL_ON_DISCONNECT_PROP_NAME, settings.get(CANCEL_ON_DISCONNECT_PROP_NAME, "true")));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("bourse.gateway.risk settings: " + ex.getMessage(), ex);
        }
        final Map<String, Long> referencePrices =
            parseReferencePrices(settings.get(REFERENCE_PRICES_PROP_NAME, ""));
        return parse(
            defaults,
            readLines(settings, FILE_PROP_NAME, FILE_DEFAULT),
            readLines(settings, FIRMS_FILE_PROP_NAME, FIRMS_FILE_DEFAULT),
            referencePrices);
    }

    /**
     * @param defaults        limits of users without a row, and of a row's empty fields.
     * @param userLines       CSV lines of the per-user file.
     * @param firmLines       CSV lines of the per-firm file.
     * @param referencePrices collar reference prices by symbol, in 1/10000 dollars.
     * @return the limits.
     * @throws IllegalArgumentException naming the line at fault.
     */
    public static RiskLimits parse(
        final UserLimits defaults,
        final List<String> userLines,
        final List<String> firmLines,
        final Map<String, Long> referencePrices)
    {
        final Map<String, UserLimits> users = new LinkedHashMap<>();
        for (final String line : rows(userLines, "username,"))
        {
            final String[] fields = line.split(",", -1);
            if (COLUMNS != fields.length || fields[0].trim().isEmpty())
            {
                throw new IllegalArgumentException("risk limits: expected username,max_order_shares,max_notional," +
                    "max_open_orders,price_band_bp,orders_per_second,cancel_on_disconnect: " + line);
            }
            try
            {
                final UserLimits limits = new UserLimits(
                    parseLong(fields[1], defaults.maxOrderShares()),
                    parseLong(fields[2], defaults.maxNotional()),
                    parseLong(fields[3], defaults.maxOpenOrders()),
                    parseBasisPoints(fields[4], defaults.priceBandBasisPoints()),
                    parseLong(fields[5], defaults.ordersPerSecond()),
                    fields[6].isBlank() ? defaults.cancelOnDisconnect() : parseYesNo(fields[6]));
                if (null != users.put(fields[0].trim(), limits))
                {
                    throw new IllegalArgumentException("user given twice");
                }
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("risk limits: " + ex.getMessage() + ": " + line, ex);
            }
        }
        return new RiskLimits(defaults, Map.copyOf(users), parseFirms(firmLines), Map.copyOf(referencePrices));
    }

    private static Map<Integer, FirmLimits> parseFirms(final List<String> lines)
    {
        final Map<Integer, FirmLimits> firms = new LinkedHashMap<>();
        for (final String line : rows(lines, "firm,"))
        {
            final String[] fields = line.split(",", -1);
            final String firm = fields[0].trim();
            if (FIRM_COLUMNS != fields.length || !isFirm(firm))
            {
                throw new IllegalArgumentException("firm risk limits: expected firm (1 to 4 upper-case letters or " +
                    "digits),max_order_shares,max_notional,max_open_orders,price_band_bp,orders_per_second: " + line);
            }
            try
            {
                final FirmLimits limits = new FirmLimits(
                    parseLong(fields[1], 0),
                    parseLong(fields[2], 0),
                    parseLong(fields[3], 0),
                    parseBasisPoints(fields[4], 0),
                    parseLong(fields[5], 0));
                if (null != firms.put(Ouch42.packFirm(firm), limits))
                {
                    throw new IllegalArgumentException("firm given twice");
                }
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("firm risk limits: " + ex.getMessage() + ": " + line, ex);
            }
        }
        return Map.copyOf(firms);
    }

    /**
     * @param spec comma-separated {@code SYMBOL:PRICE} items, price in 1/10000 dollars; empty for none.
     * @return the prices by symbol.
     * @throws IllegalArgumentException naming {@value #REFERENCE_PRICES_PROP_NAME} for a malformed item.
     */
    public static Map<String, Long> parseReferencePrices(final String spec)
    {
        final Map<String, Long> prices = new LinkedHashMap<>();
        for (final String raw : spec.split(","))
        {
            final String item = raw.trim();
            if (item.isEmpty())
            {
                continue;
            }
            final int colon = item.indexOf(':');
            try
            {
                final String symbol = item.substring(0, Math.max(0, colon)).trim().toUpperCase(Locale.ROOT);
                final long price = Long.parseLong(item.substring(colon + 1).trim());
                if (symbol.isEmpty() || price < 1 || price > Ouch42.MAX_PRICE)
                {
                    throw new NumberFormatException("price outside 1.." + Ouch42.MAX_PRICE);
                }
                prices.put(symbol, price);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(REFERENCE_PRICES_PROP_NAME + ": bad item '" + item + "'", ex);
            }
        }
        return prices;
    }

    /**
     * @param symbols the tradable symbols.
     * @return this.
     * @throws IllegalStateException naming {@value #REFERENCE_PRICES_PROP_NAME} for a symbol not traded here.
     */
    public RiskLimits validate(final SymbolDirectory symbols)
    {
        for (final String symbol : referencePrices.keySet())
        {
            if (symbol.length() > Symbols.LENGTH || null == symbols.find(Symbols.pack(symbol)))
            {
                throw new IllegalStateException(REFERENCE_PRICES_PROP_NAME + ": symbol not traded: " + symbol);
            }
        }
        return this;
    }

    /**
     * @param username a SoupBinTCP username.
     * @return the user's row, or the defaults.
     */
    public UserLimits forUser(final String username)
    {
        return users.getOrDefault(username, defaults);
    }

    /**
     * @param firm an OUCH 4.2 Firm as a big-endian int of 4 ASCII bytes, space padded (e.g. {@code
     *             Ouch42.packFirm("DEMO")}).
     * @return the firm's row, or {@link #NO_FIRM_LIMITS}.
     */
    public FirmLimits forFirm(final int firm)
    {
        return firms.getOrDefault(firm, NO_FIRM_LIMITS);
    }

    /** @return the limits of users without a row. */
    public UserLimits defaults()
    {
        return defaults;
    }

    /**
     * @param symbol a symbol, e.g. {@code AAPL}.
     * @return its configured collar reference price in 1/10000 dollars, or 0 for none.
     */
    public long referencePrice(final String symbol)
    {
        return referencePrices.getOrDefault(symbol, 0L);
    }

    private static List<String> readLines(final Settings settings, final String name, final String defaultFile)
    {
        final String file = settings.get(name, defaultFile);
        final Path path = Path.of(file);
        if (defaultFile.equals(file) && !Files.exists(path))
        {
            return List.of();
        }
        try
        {
            return Files.readAllLines(path, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(name + "=" + file + ": " + ex, ex);
        }
    }

    /** @return the trimmed lines that are rows: not blank, not a {@code #} comment, not the header. */
    private static List<String> rows(final List<String> lines, final String headerStart)
    {
        return lines.stream()
            .map(String::trim)
            .filter(line -> !line.isEmpty() && !line.startsWith("#") && !line.startsWith(headerStart))
            .toList();
    }

    private static boolean isFirm(final String firm)
    {
        return firm.length() >= 1 && firm.length() <= Ouch42.FIRM_LENGTH &&
            OrderValidation.isValidFirm(Ouch42.packFirm(firm));
    }

    private static long parseLong(final String field, final long defaultValue)
    {
        final String value = field.trim();
        if (value.isEmpty())
        {
            return defaultValue;
        }
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("not a whole number: '" + value + "'", ex);
        }
    }

    private static int parseBasisPoints(final String field, final int defaultValue)
    {
        final long value = parseLong(field, defaultValue);
        requireRange("price_band_bp", value, MAX_BASIS_POINTS);
        return (int)value;
    }

    private static boolean parseYesNo(final String field)
    {
        return switch (field.trim().toUpperCase(Locale.ROOT))
        {
            case "Y" -> true;
            case "N" -> false;
            default -> throw new IllegalArgumentException("cancel_on_disconnect must be Y or N: '" + field + "'");
        };
    }

    private static boolean parseBoolean(final String name, final String value)
    {
        return switch (value.trim().toLowerCase(Locale.ROOT))
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false: '" + value + "'");
        };
    }

    private static void requireRanges(
        final long maxOrderShares,
        final long maxNotional,
        final long maxOpenOrders,
        final int priceBandBasisPoints,
        final long ordersPerSecond)
    {
        requireRange("max_order_shares", maxOrderShares, 0xFFFF_FFFFL);
        requireRange("max_notional", maxNotional, MAX_NOTIONAL_LIMIT);
        requireRange("max_open_orders", maxOpenOrders, Long.MAX_VALUE);
        requireRange("price_band_bp", priceBandBasisPoints, MAX_BASIS_POINTS);
        requireRange("orders_per_second", ordersPerSecond, 1_000_000_000L);
    }

    private static void requireRange(final String name, final long value, final long max)
    {
        if (value < 0 || value > max)
        {
            throw new IllegalArgumentException(name + " must be 0.." + max + ": " + value);
        }
    }
}
