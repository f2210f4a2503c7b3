package io.rdmarepl.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value written as a reference, so that passwords and tokens need not sit in properties files: {@code ${env:NAME}}
 * is the environment variable NAME, {@code ${file:/path}} the file's content without its trailing line breaks. Only
 * a whole value is a reference; what a reference stands for is never put in a message.
 */
final class ValueReference {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z]+):(.*)}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ValueReference() {
    }

    static boolean isReference(String written) {
        return REFERENCE.matcher(written).matches();
    }

    /**
     * @param written   the value as written, trimmed
     * @param directory what a relative file path is read against; null: the working directory
     * @return the value {@code written} stands for: itself unless it is a reference
     * @throws IllegalArgumentException saying why the reference cannot be read (never what it holds)
     */
    static String resolve(String written, Path directory) {
        Matcher reference = REFERENCE.matcher(written);
        if (!reference.matches()) {
            return written;
        }
        String target = reference.group(2);
        return switch (reference.group(1)) {
            case "env" -> environment(target);
            case "file" -> file(target, directory);
            default -> throw new IllegalArgumentException("unknown reference kind '" + reference.group(1)
                    + "': use ${env:NAME} or ${file:/path}");
        };
    }

    private static String environment(String name) {
        if (!ENV_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not an environment variable name");
        }
        String value = System.getenv(name);
        if (value == null) {
            throw new IllegalArgumentException("environment variable " + name + " is not set");
        }
        return value;
    }

    private static String file(String name, Path directory) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("names no file");
        }
        Path path = Path.of(name);
        if (!path.isAbsolute() && directory != null) {
            path = directory.resolve(path);
        }
        if (Files.isDirectory(path)) {
            throw new IllegalArgumentException("cannot read " + path + ": it is a directory");
        }
        try {
            return stripTrailingLineBreaks(Files.readString(path, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read " + path + ": it does not exist");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("cannot read " + path + ": permission denied");
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("cannot read " + path + ": it is not UTF-8 text");
        } catch (IOException e) {
            // the exception's own message could quote the file; its kind says enough
            throw new IllegalArgumentException("cannot read " + path + ": " + e.getClass().getSimpleName());
        }
    }

    private static String stripTrailingLineBreaks(String content) {
        int end = content.length();
        while (end > 0 && (content.charAt(end - 1) == '\n' || content.charAt(end - 1) == '\r')) {
            end--;
        }
        return content.substring(0, end);
    }
}
