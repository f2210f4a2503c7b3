package io.rdmarepl.shipper.config;

import io.rdmarepl.channel.ChannelUri;

/**
 * One standby the shipper feeds.
 *
 * @param name     used in status, metrics and messages
 * @param uri      the standby's ring
 * @param required whether offsets wait for this standby's durable position
 */
public record StandbyConfig(String name, ChannelUri uri, boolean required) {
}
