package io.rdmarepl.channel.softverbs.planted;

/** Planted for ArchitectureRulesFailTest: a verbs transport using DiSNI, which is allowed. Never in production. */
public class SoftVerbsAddOn {
    com.ibm.disni.verbs.IbvMr memoryRegion;
}
