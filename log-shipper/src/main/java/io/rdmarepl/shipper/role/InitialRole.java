package io.rdmarepl.shipper.role;

import io.micrometer.core.instrument.MeterRegistry;
import io.rdmarepl.config.Activation;
import io.rdmarepl.shipper.Shipper;
import io.rdmarepl.shipper.capture.SlotRetention;
import io.rdmarepl.shipper.config.ShipperConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ShipperRole} a process begins in, as {@code activation} and the kept {@link ShipperEpoch} say. With
 * {@code on-request} it waits, unless the coordinator activated it before this process started and did not retire it
 * since: then it ships on as with {@code immediate}. With {@code immediate} the shipper starts at the epoch of its last
 * activation or else {@code ring.epoch}, and its errors propagate (the process exits and its supervisor restarts it),
 * with two exceptions that a restart would not change, where the role serves the admin endpoint without a shipper, so
 * the coordinator can retire or activate it: a member retired before (it is a standby: {@link RoleState#RETIRED}), and
 * a standby refusing this shipper for its epoch (a failover happened since: {@link RoleState#WAITING}).
 */
public final class InitialRole {
    private static final Logger LOG = LoggerFactory.getLogger(InitialRole.class);

    private InitialRole() {
    }

    /** {@link #prepare} and {@link ShipperRole#startAsConfigured}: the shipper, if one is to run, has started. */
    public static ShipperRole start(ShipperConfig config, MeterRegistry registry) {
        ShipperRole role = prepare(config, registry);
        role.startAsConfigured();
        return role;
    }

    /** {@link #start(ShipperConfig, MeterRegistry)} with its parts given (tests). */
    public static ShipperRole start(ShipperConfig config, ShipperRole.Starter starter, SlotDropper dropper) {
        ShipperRole role = prepare(config, starter, dropper);
        role.startAsConfigured();
        return role;
    }

    /**
     * The role, nothing started yet: {@link RoleState#STARTING} for a shipper {@link ShipperRole#startAsConfigured()}
     * starts. The process serves its admin endpoint between the two, so a start that waits for a standby a partition
     * hides still answers the coordinator's lease renewals: the lease an earlier shipper of this primary left counting is
     * renewed, and the lease guard does not fence a primary its coordinator still reaches.
     */
    public static ShipperRole prepare(ShipperConfig config, MeterRegistry registry) {
        SlotRetention.register(registry, config);
        return prepare(config, shipperStarter(registry), new PrimarySlotDropper(config, PrimarySlotDropper.ACTIVE_WAIT));
    }

    /** {@link #prepare(ShipperConfig, MeterRegistry)} with its parts given (tests). */
    public static ShipperRole prepare(ShipperConfig config, ShipperRole.Starter starter, SlotDropper dropper) {
        ShipperEpoch kept = ShipperEpoch.read(config);
        if (config.activation() == Activation.ON_REQUEST) {
            if (kept.retired() || kept.epoch().isEmpty()) {
                return ShipperRole.waiting(config, starter, dropper);
            }
            // activated by the coordinator and never retired since: a restart (a crash, its supervisor) ships on from the
            // slot at that epoch; waiting for an activation that never comes would hold every sync commit for good
            LOG.info("activated at epoch {} before this process started ({}): shipping on from slot {}",
                    kept.epoch().getAsInt(), config.epochFile(), config.slotName());
        }
        if (kept.retired()) {
            String note = "retired by the coordinator before this process started (" + config.epochFile() + "): this member"
                    + " is a standby; nothing ships until the coordinator activates it";
            LOG.warn("{}", note);
            return new ShipperRole(config, RoleState.RETIRED, null, starter, dropper, note, null);
        }
        return new ShipperRole(config, RoleState.STARTING, null, starter, dropper, null, "a start");
    }

    /** Holds a {@link Shipper} its caller started (the demo and the benchmarks). */
    public static ShipperRole around(ShipperConfig config, Shipper shipper, MeterRegistry registry) {
        SlotRetention.register(registry, config);
        return ShipperRole.shipping(config, RunningShipper.of(shipper), shipperStarter(registry),
                new PrimarySlotDropper(config, PrimarySlotDropper.ACTIVE_WAIT));
    }

    private static ShipperRole.Starter shipperStarter(MeterRegistry registry) {
        return (settings, leaseOpened) -> RunningShipper.of(Shipper.start(settings, registry, leaseOpened));
    }
}
