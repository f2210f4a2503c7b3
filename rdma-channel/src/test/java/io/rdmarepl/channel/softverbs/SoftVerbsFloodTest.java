package io.rdmarepl.channel.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.IbvWC.IbvWcStatus;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both ends of one connection writing as fast as they can at the same time: each side's socket
 * fills in both directions, and the emulation must still acknowledge and complete everything (a
 * real RC queue pair acknowledges in the adapter, whatever the host is doing).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SoftVerbsFloodTest {
    private static final int ALL_REMOTE = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ;
    private static final int WRITE_LENGTH = 256 * 1024;
    private static final int WRITES = 2_000;
    private static final int DEPTH = 16;

    @Test
    void shouldCompleteWritesFloodingBothDirectionsAtOnce() throws Exception {
        try (SoftVerbsPair pair = SoftVerbsPair.connect(DEPTH)) {
            IbvMr serverTarget = pair.server.register(ByteBuffer.allocateDirect(WRITE_LENGTH), ALL_REMOTE);
            IbvMr clientTarget = pair.client.register(ByteBuffer.allocateDirect(WRITE_LENGTH), ALL_REMOTE);
            IbvMr serverSource = pair.server.register(ByteBuffer.allocateDirect(WRITE_LENGTH), IbvMr.IBV_ACCESS_LOCAL_WRITE);
            IbvMr clientSource = pair.client.register(ByteBuffer.allocateDirect(WRITE_LENGTH), IbvMr.IBV_ACCESS_LOCAL_WRITE);

            CompletableFuture<Integer> fromClient = CompletableFuture.supplyAsync(() -> flood(pair.client, clientSource, serverTarget));
            CompletableFuture<Integer> fromServer = CompletableFuture.supplyAsync(() -> flood(pair.server, serverSource, clientTarget));

            assertThat(fromClient.get(100, TimeUnit.SECONDS)).as("client writes completed").isEqualTo(WRITES);
            assertThat(fromServer.get(100, TimeUnit.SECONDS)).as("server writes completed").isEqualTo(WRITES);
        }
    }

    /** Keeps the send queue full of signalled writes; fails when no completion arrives for 10 s. */
    private static int flood(SoftVerbsPair.Side side, IbvMr source, IbvMr target) {
        try {
            int posted = 0;
            int completed = 0;
            while (completed < WRITES) {
                while (posted < WRITES && posted - completed < DEPTH) {
                    side.post(IbvSendWR.IBV_WR_RDMA_WRITE, posted++, source, 0, WRITE_LENGTH, target.getAddr(), target.getRkey(),
                            IbvSendWR.IBV_SEND_SIGNALED);
                }
                IbvWC completion = side.await(10_000);
                assertThat(completion.getStatus()).as("completion of write %d", completion.getWr_id())
                        .isEqualTo(IbvWcStatus.IBV_WC_SUCCESS.ordinal());
                completed++;
            }
            return completed;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
