package io.rdmarepl.harness.bench;

import java.lang.management.ManagementFactory;

/** Bytes the current thread has allocated so far, from the JVM's own counter; -1 where unsupported. */
final class ThreadAllocation {
    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private ThreadAllocation() {
    }

    static long currentThreadAllocatedBytes() {
        return THREADS == null ? -1 : THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()) {
            bean.setThreadAllocatedMemoryEnabled(true);
            return bean;
        }
        return null;
    }
}
