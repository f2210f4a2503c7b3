package io.rdmarepl.channel.planted;

import java.sql.*;

/**
 * Planted for SourceRulesFailTest: rdma-channel taking log-format's and a database's constants (one through an import
 * on demand), and DiSNI's outside the verbs transports; javac copies them in, so its class file names none. Never in
 * production.
 */
public class ChannelWithFormatConstants {
    static final int FORMAT_VERSION = io.rdmarepl.format.codec.RecordDescriptor.VERSION;
    static final int SERIALIZABLE = Connection.TRANSACTION_SERIALIZABLE;
    static final int RDMA_WRITE = com.ibm.disni.verbs.IbvSendWR.IBV_WR_RDMA_WRITE;
}
