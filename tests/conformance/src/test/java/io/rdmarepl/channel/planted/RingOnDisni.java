package io.rdmarepl.channel.planted;

/** Planted for ArchitectureRulesFailTest: channel code outside the verbs transports using DiSNI. Never in production. */
public class RingOnDisni {
    com.ibm.disni.verbs.IbvMr memoryRegion;
}
