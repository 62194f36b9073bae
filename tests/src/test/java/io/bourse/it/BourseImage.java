package io.bourse.it;

import org.testcontainers.images.builder.ImageFromDockerfile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The image every service container runs, built from the repository's own Dockerfile, the one
 * {@code docker compose build} uses. The build context honours the repository's {@code .dockerignore} (the
 * Docker CLI applies it, the Docker API used here does not) so that the layer cache survives local builds, and the
 * image is kept after the tests so that the next run starts from that cache.
 */
final class BourseImage
{
    /** Tag of the image built for the integration tests. */
    static final String IMAGE_NAME = "bourse:it";

    /** Base-image build arguments of the Dockerfile; taken from the environment when set (air-gapped hosts). */
    private static final List<String> BUILD_ARGS = List.of("BOURSE_JDK_IMAGE", "BOURSE_JRE_IMAGE");

    private BourseImage()
    {
    }

    /**
     * Builds the image (a cache hit when nothing changed) and returns its name.
     *
     * @return {@value #IMAGE_NAME}.
     */
    static String build()
    {
        final Path root = repositoryRoot();
        final ImageFromDockerfile image = new ImageFromDockerfile(IMAGE_NAME, false);
        for (final Path file : contextFiles(root))
        {
            image.withFileFromPath(root.relativize(file).toString(), file);
        }
        for (final String arg : BUILD_ARGS)
        {
            final String value = System.getenv(arg);
            if (null != value && !value.isBlank())
            {
                image.withBuildArg(arg, value);
            }
        }
        return image.get();
    }

    /**
     * @return the repository root: the nearest directory upwards from the working directory that holds both the
     * Dockerfile and the Maven wrapper.
     */
    static Path repositoryRoot()
    {
        for (Path dir = Path.of("").toAbsolutePath(); null != dir; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("Dockerfile")) && Files.isRegularFile(dir.resolve("mvnw")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no Dockerfile and mvnw above " + Path.of("").toAbsolutePath());
    }

    /** Files of the build context; ignored directories are not entered, so builds running meanwhile do no harm. */
    private static List<Path> contextFiles(final Path root)
    {
        final List<PathMatcher> ignored = ignorePatterns(root);
        final List<Path> files = new ArrayList<>();
        try
        {
            Files.walkFileTree(root, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attributes)
                {
                    return !dir.equals(root) && isIgnored(root.relativize(dir), ignored) ?
                        FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                {
                    if (attributes.isRegularFile() && !isIgnored(root.relativize(file), ignored))
                    {
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return files;
    }

    /**
     * Reads {@code .dockerignore} as globs: a pattern matches a path or any of its parent directories, and a leading
     * {@code **}{@code /} also matches at the root (as Docker's matcher does). Exceptions ({@code !}) are not used by
     * this repository and are rejected rather than silently misread.
     */
    private static List<PathMatcher> ignorePatterns(final Path root)
    {
        final Path dockerignore = root.resolve(".dockerignore");
        if (!Files.isRegularFile(dockerignore))
        {
            return List.of();
        }
        final List<PathMatcher> matchers = new ArrayList<>();
        try
        {
            for (final String raw : Files.readAllLines(dockerignore))
            {
                final String line = raw.trim();
                if (line.isEmpty() || line.startsWith("#"))
                {
                    continue;
                }
                if (line.startsWith("!"))
                {
                    throw new IllegalStateException(".dockerignore exceptions are not supported here: " + line);
                }
                final String pattern = line.replaceAll("/+$", "").replaceFirst("^/", "");
                matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
                if (pattern.startsWith("**/"))
                {
                    matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3)));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return matchers;
    }

    private static boolean isIgnored(final Path relative, final List<PathMatcher> ignored)
    {
        for (Path candidate = relative; null != candidate; candidate = candidate.getParent())
        {
            for (final PathMatcher matcher : ignored)
            {
                if (matcher.matches(candidate))
                {
                    return true;
                }
            }
        }
        return false;
    }
}
