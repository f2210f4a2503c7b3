package io.rdmarepl.shipper.planted;

/** Planted for ArchitectureRulesFailTest: the shipper using DiSNI itself. Never in production. */
public class ShipperOnVerbs {
    com.ibm.disni.verbs.IbvMr memoryRegion;
}
