package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvWC.IbvWcStatus;

/** Work-completion statuses in words. */
final class VerbsErrors {
    private VerbsErrors() {
    }

    static String describe(int status) {
        IbvWcStatus known = status >= 0 && status < IbvWcStatus.values().length ? IbvWcStatus.values()[status] : null;
        String name = known == null ? "status " + status : known.name();
        String meaning = known == null ? "unknown" : switch (known) {
            case IBV_WC_REM_ACCESS_ERR -> "remote access error: the peer refused the rkey, the bounds or the access rights";
            case IBV_WC_RETRY_EXC_ERR -> "transport retries exceeded: the peer is unreachable or dead";
            case IBV_WC_RNR_RETRY_EXC_ERR -> "receiver not ready: no receive posted on the peer";
            case IBV_WC_WR_FLUSH_ERR -> "flushed: the queue pair is in the error state after an earlier failure or disconnect";
            case IBV_WC_LOC_PROT_ERR -> "local protection error: lkey or bounds of the local buffer";
            case IBV_WC_REM_INV_REQ_ERR -> "remote invalid request (e.g. a message larger than the posted receive)";
            default -> "see ibv_wc_status_str";
        };
        return name + " (" + meaning + ")";
    }
}
