package io.rdmarepl.coordinator.planted;

import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.format.Lsn;

/**
 * Planted for SourceRulesFailTest: the coordinator taking the codec's and DiSNI's constants, which javac copies in,
 * beside what it may name (the format's Lsn, the control contract). Never in production.
 */
public class CoordinatorReadingFrames {
    static final int FORMAT_VERSION = io.rdmarepl.format.codec.RecordDescriptor.VERSION;
    static final int RDMA_WRITE = com.ibm.disni.verbs.IbvSendWR.IBV_WR_RDMA_WRITE;
    static final String ALLOWED_ROUTE = ShipperRoutes.LEASE;
    Lsn allowedLsn;
}
