package io.rdmarepl.shipper.role;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the coordinator last made of this member's shipper, kept across restarts of the process in
 * {@link ShipperConfig#epochFile()}: {@code epoch N} after an activation at epoch N (a restart ships at N, not at
 * {@code ring.epoch}), {@code retired} after a retirement (a restart ships nothing: the member is a standby). One line
 * of text, replaced atomically. Like the lease file it sits beside, a reboot forgets it (tmpfs): the process then
 * ships at {@code ring.epoch}, which a ring of a newer epoch refuses. Kept only with a lease ({@code fence.lease.ms} &gt; 0),
 * whose directory is this host's shippers' own (the lease file's rule: one file per {@code source.name}); without one,
 * every start ships at {@code ring.epoch}.
 *
 * @param retired  the member's shipper was retired
 * @param epoch    the epoch of the last activation, when one was kept
 */
public record ShipperEpoch(boolean retired, OptionalInt epoch) {
    private static final Logger LOG = LoggerFactory.getLogger(ShipperEpoch.class);
    private static final ShipperEpoch NONE = new ShipperEpoch(false, OptionalInt.empty());

    /** Nothing kept (without a lease, or unreadable, which is logged): the configuration decides. */
    public static ShipperEpoch read(ShipperConfig config) {
        if (config.fenceLeaseMs() == 0) {
            return NONE;
        }
        Path file = config.epochFile();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (IOException e) {
            LOG.warn("cannot read {} ({}): shipping at ring.epoch {}", file, e.getMessage(), config.ringEpoch());
            return NONE;
        }
        if (text.equals("retired")) {
            return new ShipperEpoch(true, OptionalInt.empty());
        }
        if (text.startsWith("epoch ")) {
            try {
                int epoch = Integer.parseInt(text.substring("epoch ".length()).strip());
                if (epoch > 0) {
                    return new ShipperEpoch(false, OptionalInt.of(epoch));
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        LOG.warn("{} holds '{}', neither 'epoch N' nor 'retired': shipping at ring.epoch {}", file, text, config.ringEpoch());
        return NONE;
    }

    /** After an activation at {@code epoch}. */
    static void activated(ShipperConfig config, int epoch) {
        write(config, "epoch " + epoch);
    }

    /** After a retirement. */
    static void retired(ShipperConfig config) {
        write(config, "retired");
    }

    /** Best effort: a file that cannot be written is logged, and a restart falls back to ring.epoch. */
    private static void write(ShipperConfig config, String line) {
        if (config.fenceLeaseMs() == 0) {
            return;
        }
        Path file = config.epochFile();
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, line + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot keep '{}' in {} ({}): a restart of this process ships at ring.epoch {}", line, file, e.getMessage(),
                    config.ringEpoch());
        }
    }
}
