package io.rdmarepl.shipper;

/**
 * The capture contract of {@link ShipperPipelineIT} on the native engine ({@code capture.engine=pgoutput}), the
 * capture thread writing the standby's ring itself ({@code ship.inline=true}).
 */
class PgOutputShipperPipelineIT extends ShipperPipelineIT {
    @Override
    String engine() {
        return "pgoutput";
    }

    @Override
    boolean shipInline() {
        return true;
    }
}
