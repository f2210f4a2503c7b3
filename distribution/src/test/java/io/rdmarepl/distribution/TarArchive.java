package io.rdmarepl.distribution;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/** Reads the entries of a {@code .tar.gz} (ustar, GNU long names): enough to check what an archive holds. */
final class TarArchive {
    private static final int BLOCK = 512;

    /** One regular file or directory of the archive. */
    record Entry(String name, int mode, long size, char type) {
    }

    private TarArchive() {
    }

    /** Entries by name; the content of each is read past, not kept. */
    static Map<String, Entry> entries(Path archive) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(archive), 1 << 16), 1 << 16)) {
            byte[] header = new byte[BLOCK];
            String longName = null;
            while (readFully(in, header)) {
                if (header[0] == 0) {
                    break; // end-of-archive blocks
                }
                String name = text(header, 0, 100);
                String prefix = text(header, 345, 155);
                int mode = (int) octal(header, 100, 8);
                long size = octal(header, 124, 12);
                char type = (char) header[156];
                if (type == 'L') {
                    byte[] data = new byte[(int) size];
                    readFully(in, data);
                    skip(in, padding(size));
                    longName = text(data, 0, data.length);
                    continue;
                }
                String full = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                longName = null;
                skip(in, size + padding(size));
                if (type == 'x' || type == 'g') {
                    continue; // pax headers
                }
                entries.put(full, new Entry(full, mode, size, type == 0 ? '0' : type));
            }
        }
        return entries;
    }

    private static long padding(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    private static boolean readFully(InputStream in, byte[] buffer) throws IOException {
        int read = in.readNBytes(buffer, 0, buffer.length);
        if (read != 0 && read != buffer.length) {
            throw new IOException("truncated tar archive");
        }
        return read == buffer.length;
    }

    private static void skip(InputStream in, long bytes) throws IOException {
        in.skipNBytes(bytes);
    }

    private static String text(byte[] b, int offset, int length) {
        int end = offset;
        while (end < offset + length && b[end] != 0) {
            end++;
        }
        return new String(b, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] b, int offset, int length) {
        String value = text(b, offset, length).trim();
        return value.isEmpty() ? 0 : Long.parseLong(value, 8);
    }
}
