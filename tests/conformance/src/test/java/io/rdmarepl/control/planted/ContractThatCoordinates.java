package io.rdmarepl.control.planted;

/**
 * Planted for ArchitectureRulesFailTest: the control contract reaching into the code on either side of it, beside
 * what it may use (the JDK and Jackson). Never in production.
 */
public class ContractThatCoordinates {
    io.rdmarepl.coordinator.machine.Coordinator coordinator;
    io.rdmarepl.shipper.role.ShipperRole shipper;
    org.slf4j.Logger log;
    com.fasterxml.jackson.databind.JsonNode allowedJson;
    java.net.URI allowedUri;
}
