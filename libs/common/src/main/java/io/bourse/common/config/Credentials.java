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
 * Users who may log in over SoupBinTCP, read from a CSV file {@code username,password,firm} (a header line and
 * {@code #} comments are skipped). Username at most 6 characters and password at most 10 (SoupBinTCP 4.0 Login
 * Request), firm at most 4 (OUCH 4.2 Firm).
 */
public final class Credentials
{
    /** Setting name of the credentials file. */
    public static final String FILE_PROP_NAME = "bourse.credentials.file";
    /** Default credentials file, relative to the working directory. */
    public static final String FILE_DEFAULT = "deploy/credentials.csv";

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
     * @param lines CSV lines.
     * @return the users.
     * @throws IllegalArgumentException for a malformed line or an over-long field.
     */
    public static Credentials parse(final List<String> lines)
    {
        final Map<String, User> users = new LinkedHashMap<>();
        for (final String raw : lines)
        {
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("username,"))
            {
                continue;
            }
            final String[] fields = line.split(",", -1);
            if (fields.length != 3)
            {
                throw new IllegalArgumentException("credentials: expected username,password,firm: " + line);
            }
            final User user = new User(fields[0].trim(), fields[1].trim(), fields[2].trim());
            if (user.username().isEmpty() || user.username().length() > 6 || user.password().length() > 10 ||
                user.firm().length() > 4)
            {
                throw new IllegalArgumentException("credentials: field too long or empty: " + line);
            }
            users.put(user.username(), user);
        }
        return new Credentials(users);
    }

    /**
     * @param file the CSV file.
     * @return the users.
     * @throws IOException when the file cannot be read.
     */
    public static Credentials load(final Path file) throws IOException
    {
        return parse(Files.readAllLines(file, StandardCharsets.US_ASCII));
    }

    /**
     * @param settings where to read {@value #FILE_PROP_NAME} from.
     * @return the users of the configured file.
     * @throws IOException when the file cannot be read.
     */
    public static Credentials fromSettings(final Settings settings) throws IOException
    {
        return load(Path.of(settings.get(FILE_PROP_NAME, FILE_DEFAULT)));
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
