package io.rdmarepl.config.planted;

/** Planted for ArchitectureRulesFailTest: config-support needing more than the JDK. Never in production. */
public class ConfigWithALibrary {
    org.slf4j.Logger log;
}
