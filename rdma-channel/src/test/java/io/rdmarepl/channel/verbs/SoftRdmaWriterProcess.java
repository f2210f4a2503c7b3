package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.ring.NumberedFrames;
import io.rdmarepl.channel.ring.RingWriter;

/** Main class run in a separate JVM by {@link SoftRdmaTwoProcessIT}: writes numbered frames over softrdma. */
public final class SoftRdmaWriterProcess {
    private SoftRdmaWriterProcess() {
    }

    public static void main(String[] args) {
        ChannelUri uri = ChannelUri.parse(args[0]);
        long frames = Long.parseLong(args[1]);
        int maxPayload = Integer.parseInt(args[2]);
        try (VerbsWriterEnd end = VerbsWriterEnd.connect(uri, ChannelSecurity.fromEnvironment(), VerbsSettings.defaults())) {
            RingWriter writer = new RingWriter(end);
            NumberedFrames.write(writer, 11, frames, maxPayload, 16);
            System.out.println("wrote " + frames + " frames, back-pressured " + writer.backPressureEvents() + " times");
        }
    }
}
