/**
 * The control contract between the failover coordinator and the roles' admin endpoints, in one place: the routes
 * ({@link io.rdmarepl.control.ShipperRoutes}, {@link io.rdmarepl.control.ApplierRoutes}), a record for every request
 * body and every answer of those routes, and their one JSON mapping ({@link io.rdmarepl.control.ControlJson}). The
 * endpoint that writes a body or an answer and the side that reads it use the same record, so a field is named once,
 * in its {@code @JsonProperty}; each record's test pins the names on the wire.
 *
 * <p>Shipper: {@code GET /primary} {@link io.rdmarepl.control.PrimaryAnswer}; {@code POST /lease}
 * {@link io.rdmarepl.control.LeaseAnswer}; {@code POST /activate} {@link io.rdmarepl.control.EpochRequest}, answered
 * with a {@link io.rdmarepl.control.ShipperActivateAnswer}; {@code POST /fence} {@link io.rdmarepl.control.FenceRequest},
 * answered with a {@link io.rdmarepl.control.FenceAnswer}; {@code POST /retire}
 * {@link io.rdmarepl.control.RetireAnswer}. Applier: {@code POST /activate} {@link io.rdmarepl.control.EpochRequest},
 * answered with an {@link io.rdmarepl.control.ApplierActivateAnswer}; {@code POST /drain}
 * {@link io.rdmarepl.control.DrainAnswer}; {@code POST /follow} {@link io.rdmarepl.control.FollowAnswer};
 * {@code POST /promote} {@link io.rdmarepl.control.EpochRequest}, answered with a
 * {@link io.rdmarepl.control.PromoteAnswer}; {@code POST /deactivate} {@link io.rdmarepl.control.DeactivateAnswer}.
 *
 * <p>Not records, on purpose: the {@code GET /status} documents of both roles, and the document a lease answer
 * passes on as it is ({@link io.rdmarepl.control.LeaseAnswer#copyProgress()}). They
 * are written for people and dashboards, grow a field whenever the role learns something worth showing, and the
 * coordinator reads only a few of their fields, leniently; they stay maps on the role's side and a JSON tree on the
 * coordinator's, and docs/configuration describes them.
 */
package io.rdmarepl.control;
