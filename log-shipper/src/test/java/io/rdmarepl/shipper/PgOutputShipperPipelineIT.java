package io.rdmarepl.shipper;

/** The capture contract of {@link ShipperPipelineIT} on the native engine ({@code capture.engine=pgoutput}). */
class PgOutputShipperPipelineIT extends ShipperPipelineIT {
    @Override
    String engine() {
        return "pgoutput";
    }
}
