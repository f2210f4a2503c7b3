package io.rdmarepl.channel.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.IbvWC.IbvWcOpcode;
import com.ibm.disni.verbs.IbvWC.IbvWcStatus;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The software provider through DiSNI's own API: data movement, protection checks, queue limits. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SoftVerbsTest {
    private static final int ALL_REMOTE = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ;

    @Test
    void shouldWriteReadSendAndWriteWithImmediate() throws IOException {
        try (SoftVerbsPair pair = SoftVerbsPair.connect(16)) {
            ByteBuffer target = ByteBuffer.allocateDirect(4096);
            IbvMr targetMr = pair.server.register(target, ALL_REMOTE);
            ByteBuffer source = ByteBuffer.allocateDirect(4096);
            for (int i = 0; i < 4096; i++) {
                source.put(i, (byte) (i * 7));
            }
            IbvMr sourceMr = pair.client.register(source, IbvMr.IBV_ACCESS_LOCAL_WRITE);

            pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 1, sourceMr, 100, 1000, targetMr.getAddr() + 200, targetMr.getRkey(),
                    IbvSendWR.IBV_SEND_SIGNALED);
            IbvWC write = pair.client.await(5_000);
            assertThat(write.getStatus()).isEqualTo(IbvWcStatus.IBV_WC_SUCCESS.ordinal());
            assertThat(write.getOpcode()).isEqualTo(IbvWcOpcode.IBV_WC_RDMA_WRITE.getOpcode());
            for (int i = 0; i < 1000; i++) {
                assertThat(target.get(200 + i)).isEqualTo(source.get(100 + i));
            }

            ByteBuffer readBack = ByteBuffer.allocateDirect(1000);
            IbvMr readMr = pair.client.register(readBack, IbvMr.IBV_ACCESS_LOCAL_WRITE);
            pair.client.post(IbvSendWR.IBV_WR_RDMA_READ, 2, readMr, 0, 1000, targetMr.getAddr() + 200, targetMr.getRkey(),
                    IbvSendWR.IBV_SEND_SIGNALED);
            assertThat(pair.client.await(5_000).getStatus()).isEqualTo(IbvWcStatus.IBV_WC_SUCCESS.ordinal());
            assertThat(readBack).isEqualTo(source.duplicate().position(100).limit(1100));

            ByteBuffer inbox = ByteBuffer.allocateDirect(256);
            IbvMr inboxMr = pair.server.register(inbox, IbvMr.IBV_ACCESS_LOCAL_WRITE);
            pair.server.postRecv(7, inboxMr, 256);
            pair.client.post(IbvSendWR.IBV_WR_SEND, 3, sourceMr, 0, 64, 0, 0, IbvSendWR.IBV_SEND_SIGNALED);
            IbvWC received = pair.server.await(5_000);
            assertThat(received.getWr_id()).isEqualTo(7);
            assertThat(received.getOpcode()).isEqualTo(IbvWcOpcode.IBV_WC_RECV.getOpcode());
            assertThat(received.getByte_len()).isEqualTo(64);
            assertThat(inbox.get(63)).isEqualTo(source.get(63));
            assertThat(pair.client.await(5_000).getWr_id()).isEqualTo(3);

            pair.server.postRecv(8, inboxMr, 256);
            pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE_WITH_IMM, 4, sourceMr, 0, 8, targetMr.getAddr(), targetMr.getRkey(), 0);
            IbvWC doorbell = pair.server.await(5_000);
            assertThat(doorbell.getOpcode()).isEqualTo(IbvWcOpcode.IBV_WC_RECV_RDMA_WITH_IMM.getOpcode());
            assertThat(doorbell.getImm_data()).isEqualTo(0x5eed);
        }
    }

    @Test
    void shouldRefuseAWriteWithAWrongRkeyAndFlushWhatFollows() throws IOException {
        assertRefused((pair, targetMr, sourceMr) -> pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 1, sourceMr, 0, 512,
                targetMr.getAddr(), targetMr.getRkey() ^ 0x5a5a, 0), ALL_REMOTE);
    }

    @Test
    void shouldRefuseAWriteOutOfBoundsWithoutLandingAByte() throws IOException {
        assertRefused((pair, targetMr, sourceMr) -> pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 1, sourceMr, 0, 512,
                targetMr.getAddr() + 4096 - 256, targetMr.getRkey(), 0), ALL_REMOTE);
    }

    @Test
    void shouldRefuseAWriteIntoMemoryRegisteredWithoutRemoteWrite() throws IOException {
        assertRefused((pair, targetMr, sourceMr) -> pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 1, sourceMr, 0, 512,
                targetMr.getAddr(), targetMr.getRkey(), 0), IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ);
    }

    @Test
    void shouldCompleteTheFailedRequestBeforeTheRequestsFlushedAfterIt() throws IOException {
        // a post racing the NAK must not complete before the request the NAK failed
        for (int trial = 0; trial < 200; trial++) {
            try (SoftVerbsPair pair = SoftVerbsPair.connect(16)) {
                IbvMr targetMr = pair.server.register(ByteBuffer.allocateDirect(4096), ALL_REMOTE);
                IbvMr sourceMr = pair.client.register(ByteBuffer.allocateDirect(4096), IbvMr.IBV_ACCESS_LOCAL_WRITE);
                pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 1, sourceMr, 0, 64, targetMr.getAddr(), targetMr.getRkey() ^ 1, 0);
                for (int next = 2; next <= 10; next++) {
                    pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, next, sourceMr, 0, 8, targetMr.getAddr(), targetMr.getRkey(),
                            IbvSendWR.IBV_SEND_SIGNALED);
                }
                IbvWC first = pair.client.await(5_000);
                assertThat(first.getWr_id()).as("first completion in trial %d", trial).isEqualTo(1);
                assertThat(IbvWcStatus.values()[first.getStatus()]).isEqualTo(IbvWcStatus.IBV_WC_REM_ACCESS_ERR);
                for (int next = 2; next <= 10; next++) {
                    assertThat(pair.client.await(5_000).getWr_id()).as("completion in trial %d", trial).isEqualTo(next);
                }
            }
        }
    }

    interface BadWrite {
        void post(SoftVerbsPair pair, IbvMr targetMr, IbvMr sourceMr) throws IOException;
    }

    private static void assertRefused(BadWrite badWrite, int targetAccess) throws IOException {
        try (SoftVerbsPair pair = SoftVerbsPair.connect(16)) {
            ByteBuffer target = ByteBuffer.allocateDirect(4096);
            IbvMr targetMr = pair.server.register(target, targetAccess);
            ByteBuffer source = ByteBuffer.allocateDirect(4096);
            for (int i = 0; i < 4096; i++) {
                source.put(i, (byte) 0x77);
            }
            IbvMr sourceMr = pair.client.register(source, IbvMr.IBV_ACCESS_LOCAL_WRITE);
            badWrite.post(pair, targetMr, sourceMr);
            pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 2, sourceMr, 0, 8, targetMr.getAddr(), targetMr.getRkey(),
                    IbvSendWR.IBV_SEND_SIGNALED);
            IbvWC failed = pair.client.await(5_000);
            assertThat(failed.getWr_id()).isEqualTo(1);
            assertThat(IbvWcStatus.values()[failed.getStatus()]).isEqualTo(IbvWcStatus.IBV_WC_REM_ACCESS_ERR);
            IbvWC flushed = pair.client.await(5_000);
            assertThat(flushed.getWr_id()).isEqualTo(2);
            assertThat(IbvWcStatus.values()[flushed.getStatus()]).isEqualTo(IbvWcStatus.IBV_WC_WR_FLUSH_ERR);
            pair.client.post(IbvSendWR.IBV_WR_RDMA_WRITE, 3, sourceMr, 0, 8, targetMr.getAddr(), targetMr.getRkey(), 0);
            assertThat(IbvWcStatus.values()[pair.client.await(5_000).getStatus()]).isEqualTo(IbvWcStatus.IBV_WC_WR_FLUSH_ERR);
            for (int i = 0; i < 4096; i++) {
                assertThat(target.get(i)).as("byte %d of the target", i).isZero();
            }
        }
    }

    @Test
    void shouldRefuseToPostBeforeTheQueuePairIsConnected() throws IOException {
        SoftRdma.install();
        RdmaEventChannel events = RdmaEventChannel.createEventChannel();
        RdmaCmId id = events.createId(RdmaCm.RDMA_PS_TCP);
        IbvPd pd = id.getVerbs().allocPd();
        IbvCQ cq = id.getVerbs().createCQ(id.getVerbs().createCompChannel(), 8, 0);
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_send_wr(4);
        attr.cap().setMax_recv_wr(4);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(cq);
        attr.setRecv_cq(cq);
        IbvQP qp = id.createQP(pd, attr);
        IbvSendWR wr = new IbvSendWR();
        wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
        assertThatThrownBy(() -> qp.postSend(new java.util.LinkedList<>(java.util.List.of(wr)), null).execute())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("EINVAL")
                .hasMessageContaining("not connected (state INIT)");
        id.destroyId();
    }

    @Test
    void shouldRefuseToOverflowTheSendQueue() throws IOException {
        try (SoftVerbsPair pair = SoftVerbsPair.connect(4)) {
            ByteBuffer target = ByteBuffer.allocateDirect(4096);
            IbvMr targetMr = pair.server.register(target, ALL_REMOTE);
            IbvMr sourceMr = pair.client.register(ByteBuffer.allocateDirect(64), IbvMr.IBV_ACCESS_LOCAL_WRITE);
            java.util.LinkedList<IbvSendWR> five = new java.util.LinkedList<>();
            for (int i = 0; i < 5; i++) {
                IbvSendWR wr = new IbvSendWR();
                wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
                wr.setWr_id(i);
                wr.setSg_list(new java.util.LinkedList<>());
                wr.getRdma().setRemote_addr(targetMr.getAddr());
                wr.getRdma().setRkey(targetMr.getRkey());
                five.add(wr);
            }
            assertThatThrownBy(() -> pair.client.qp.postSend(five, null).execute())
                    .isInstanceOf(IOException.class).hasMessageContaining("ENOMEM").hasMessageContaining("depth 4");
            assertThat(sourceMr.getLkey()).isNotZero();
        }
    }

    @Test
    void shouldKeepPostingAtFullSendQueueDepthOnceTheCompletionIsPolled() throws IOException {
        try (SoftVerbsPair pair = SoftVerbsPair.connect(2)) {
            IbvMr targetMr = pair.server.register(ByteBuffer.allocateDirect(4096), ALL_REMOTE);
            IbvMr sourceMr = pair.client.register(ByteBuffer.allocateDirect(64), IbvMr.IBV_ACCESS_LOCAL_WRITE);
            java.util.LinkedList<IbvSendWR> two = new java.util.LinkedList<>();
            for (int i = 0; i < 2; i++) {
                IbvSendWR wr = new IbvSendWR();
                wr.setOpcode(IbvSendWR.IBV_WR_RDMA_WRITE);
                wr.setSend_flags(i == 1 ? IbvSendWR.IBV_SEND_SIGNALED : 0);
                wr.setSg_list(new java.util.LinkedList<>(java.util.List.of(sge(sourceMr))));
                wr.setNum_sge(1);
                wr.getRdma().setRemote_addr(targetMr.getAddr());
                wr.getRdma().setRkey(targetMr.getRkey());
                two.add(wr);
            }
            com.ibm.disni.verbs.SVCPostSend post = pair.client.qp.postSend(two, null);
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            int rounds = 0;
            while (System.nanoTime() < deadlineNs) {
                post.execute(); // a full send queue: must never be ENOMEM once the last completion was polled
                assertThat(pair.client.await(5_000).getStatus()).isEqualTo(IbvWcStatus.IBV_WC_SUCCESS.ordinal());
                rounds++;
            }
            assertThat(rounds).isPositive();
        }
    }

    private static com.ibm.disni.verbs.IbvSge sge(IbvMr mr) {
        com.ibm.disni.verbs.IbvSge sge = new com.ibm.disni.verbs.IbvSge();
        sge.setAddr(mr.getAddr());
        sge.setLength(64);
        sge.setLkey(mr.getLkey());
        return sge;
    }
}
