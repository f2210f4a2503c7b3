package io.rdmarepl.shipper;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.FileReader;
import java.util.Map;
import java.util.Properties;

/** Main class of a shipper in its own JVM, for tests that kill it: {@code ShipperProcess <config.properties>}. */
public final class ShipperProcess {
    private ShipperProcess() {
    }

    public static void main(String[] args) throws Exception {
        Properties properties = new Properties();
        try (FileReader reader = new FileReader(args[0])) {
            properties.load(reader);
        }
        Shipper shipper = Shipper.start(ShipperConfig.load(properties), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
        System.out.println("STARTED");
        System.out.flush();
        while (shipper.failure() == null) {
            // this process's main thread idles while the shipper runs, without a deadline: the test kills the process
            Thread.sleep(50);
        }
        System.out.println("FAILED " + shipper.failure());
        System.exit(1);
    }
}
