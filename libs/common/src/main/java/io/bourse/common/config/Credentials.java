package io.bourse.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Users who may log in over SoupBinTCP: records {@code username,password,firm}, from a CSV file (one per line; a
 * header line, blank lines and {@code #} comments are skipped) or from the setting {@value #PROP_NAME}
 * ({@code BOURSE_CREDENTIALS}: the same records separated by {@code ;} or line breaks). Username 1 to 6 characters
 * and password 1 to 10 (SoupBinTCP 4.0 Login Request), firm at most 4 (OUCH 4.2 Firm). Error messages name a bad
 * record by its number and never show a password.
 */
public final class Credentials
{
    /** Setting name of the credentials file. */
    public static final String FILE_PROP_NAME = "bourse.credentials.file";
    /** Default credentials file, relative to the working directory. */
    public static final String FILE_DEFAULT = "deploy/credentials.csv";
    /**
     * Setting name of the users given in the setting itself ({@code BOURSE_CREDENTIALS}), instead of the file:
     * records {@code username,password,firm} separated by {@code ;} or line breaks.
     */
    public static final String PROP_NAME = "bourse.credentials";

    /** One user. */
    public record User(String username, String password, String firm)
    {
    }

    private final Map<String, User> users;

    private Credentials(final Map<String, User> users)
    {
        this.users = users;
    }

    /**
     * @param lines records {@code username,password,firm}, one per line.
     * @return the users; a username given twice takes its last record.
     * @throws IllegalArgumentException naming the record (1-based) that is not three fields, has its username or
     *                                  password empty (a blank SoupBinTCP password would log in), or a field too
     *                                  long; the firm may be empty.
     */
    public static Credentials parse(final List<String> lines)
    {
        final Map<String, User> users = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("username,"))
            {
                continue;
            }
            final String[] fields = line.split(",", -1);
            if (fields.length != 3)
            {
                throw new IllegalArgumentException("record " + (i + 1) +
                    ": expected username,password,firm, found " + fields.length + " fields");
            }
            final User user = new User(fields[0].trim(), fields[1].trim(), fields[2].trim());
            if (user.username().isEmpty() || user.username().length() > 6 || user.password().isEmpty() ||
                user.password().length() > 10 || user.firm().length() > 4)
            {
                throw new IllegalArgumentException("record " + (i + 1) + " (user '" + user.username() +
                    "'): username must be 1..6 characters, password 1..10, firm at most 4");
            }
            users.put(user.username(), user);
        }
        return new Credentials(users);
    }

    /**
     * @param file the CSV file.
     * @return the users.
     * @throws IOException              when the file cannot be read.
     * @throws IllegalArgumentException naming the file and the malformed record (its line number).
     */
    public static Credentials load(final Path file) throws IOException
    {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        try
        {
            return parse(lines);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Loads the credentials file a service's context was given, at the service's start.
     *
     * @param file the CSV file, the value of {@value #FILE_PROP_NAME}.
     * @return the users.
     * @throws IllegalStateException naming {@value #FILE_PROP_NAME} and the file when it cannot be read or holds a
     *                               malformed record.
     */
    public static Credentials loadConfigured(final Path file)
    {
        try
        {
            return load(file);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IllegalStateException(FILE_PROP_NAME + "=" + file + ": " + ex, ex);
        }
    }

    /**
     * @param settings where to read {@value #PROP_NAME} from.
     * @return the users given in {@value #PROP_NAME}, or null when it is not set (the file then holds them).
     * @throws IllegalStateException    when {@value #FILE_PROP_NAME} is set too: the two are exclusive.
     * @throws IllegalArgumentException naming the setting and the record that is malformed, or when it holds no user.
     */
    public static Credentials inline(final Settings settings)
    {
        final String records = settings.get(PROP_NAME, null);
        if (null == records)
        {
            return null;
        }
        if (null != settings.get(FILE_PROP_NAME, null))
        {
            throw new IllegalStateException(
                PROP_NAME + " and " + FILE_PROP_NAME + " are both set: give the users in one of them");
        }
        final Credentials credentials;
        try
        {
            credentials = parse(List.of(records.split("[;\\n]", -1)));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(PROP_NAME + ": " + ex.getMessage(), ex);
        }
        if (0 == credentials.size())
        {
            throw new IllegalArgumentException(PROP_NAME + " holds no username,password,firm record");
        }
        return credentials;
    }

    /**
     * @param settings where to read {@value #PROP_NAME} or else {@value #FILE_PROP_NAME} (default
     *                 {@value #FILE_DEFAULT}) from.
     * @return the users of the setting, or else of the configured file.
     * @throws IOException              when the file cannot be read.
     * @throws IllegalStateException    when both settings are set.
     * @throws IllegalArgumentException for a malformed record.
     */
    public static Credentials fromSettings(final Settings settings) throws IOException
    {
        final Credentials credentials = inline(settings);
        return null != credentials ? credentials : load(Path.of(settings.get(FILE_PROP_NAME, FILE_DEFAULT)));
    }

    /**
     * @param username as sent in the Login Request, trailing spaces removed.
     * @param password as sent, trailing spaces removed.
     * @return the user when both match, otherwise null.
     */
    public User authenticate(final String username, final String password)
    {
        final User user = users.get(username);
        return null != user && user.password().equals(password) ? user : null;
    }

    /** @return number of configured users. */
    public int size()
    {
        return users.size();
    }

    /** @return every user in file order. */
    public List<User> users()
    {
        return new ArrayList<>(users.values());
    }
}
