package io.rdmarepl.shipper.capture.pgoutput;

/**
 * The highest pgoutput {@code proto_version} a server speaks: 1 (PostgreSQL 10), 2 (14: streaming of
 * in-progress transactions), 3 (15: two-phase), 4 (16: parallel streaming). Streaming is asked for from 2 on.
 */
final class ProtocolVersion {
    private ProtocolVersion() {
    }

    static int forServer(int serverVersionNum) {
        if (serverVersionNum >= 160000) {
            return 4;
        }
        if (serverVersionNum >= 150000) {
            return 3;
        }
        if (serverVersionNum >= 140000) {
            return 2;
        }
        if (serverVersionNum >= 100000) {
            return 1;
        }
        throw new IllegalStateException("PostgreSQL " + serverVersionNum / 10000 + " has no pgoutput: 10 or newer is needed");
    }

    static boolean streams(int protocolVersion) {
        return protocolVersion >= 2;
    }
}
