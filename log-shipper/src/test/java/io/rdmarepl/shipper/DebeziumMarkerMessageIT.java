package io.rdmarepl.shipper;

/** {@link MarkerMessageIT} on the Debezium engine ({@code capture.engine=debezium}). */
class DebeziumMarkerMessageIT extends MarkerMessageIT {
    @Override
    String engine() {
        return "debezium";
    }
}
