-- Written on the primary while the shipper streams, by several client sessions at once: each "-- @block" runs
-- on one session in the order written (autocommit unless the block says BEGIN), blocks run concurrently with
-- each other (and with the counter sessions, see HostileSchemaIT), so no two blocks touch the same rows.
-- Streamed rows take the ids of initial.sql's plus 100: the same edge values, once streamed.

-- @block numbers
INSERT INTO t_numbers SELECT id + 100, label || ' (streamed)', i2, i4, i8, n, n_scaled, n_wide, f4, f8, m, o, b FROM t_numbers WHERE id < 100;
UPDATE t_numbers SET label = label || ', updated in place' WHERE id > 100;
UPDATE t_numbers SET (i2, i4, i8, n, f4, f8, m) = (SELECT i2, i4, i8, n, f4, f8, m FROM t_numbers WHERE id = 1) WHERE id = 102;
UPDATE t_numbers SET (i2, i4, i8, n, f4, f8, m) = (SELECT i2, i4, i8, n, f4, f8, m FROM t_numbers WHERE id = 2) WHERE id = 101;
UPDATE t_numbers SET id = 1008 WHERE id = 108;
DELETE FROM t_numbers WHERE id = 107;
UPDATE t_numbers SET f8 = -f8, f4 = -f4 WHERE id IN (103, 104, 105);

-- @block text
INSERT INTO t_text SELECT id + 100, label || ' (streamed)', t, vc, c, c1, nm, bp, cc FROM t_text WHERE id < 100;
UPDATE t_text SET t = t || E'\n-- appended \\ ''', c = rtrim(c) WHERE id > 100 AND t IS NOT NULL;
-- a value that equals the capture's unchanged-TOAST placeholder: it is data, not a marker
UPDATE t_text SET t = '__rdmarepl:unchanged-toast:7d0c4b1e9a2f__', vc = 'ok' WHERE id = 105;
UPDATE t_text SET nm = 'renamed', c1 = 'r' WHERE id = 106;
DELETE FROM t_text WHERE id = 104;

-- @block time
-- (a timetz offset with seconds, rows 3 and 4, stops the Debezium stream: timetz-offset-seconds.sql has those)
INSERT INTO t_time SELECT id + 100, label || ' (streamed)', d, ts, tstz, tm,
  CASE id WHEN 3 THEN '00:00:00.000001+15:59' WHEN 4 THEN '23:59:59.999999-15:59' ELSE tmtz END, iv, ts0, tstz3, tm2, iv_ym
  FROM t_time WHERE id < 100;
UPDATE t_time SET label = label || ', updated' WHERE id > 100;
UPDATE t_time SET (d, ts, tstz) = (SELECT d, ts, tstz FROM t_time WHERE id = 4) WHERE id = 103;
UPDATE t_time SET tmtz = '23:59:59.999999+15:59', iv = '-2147483647 days -2147483647:59:59.999999' WHERE id = 107;
DELETE FROM t_time WHERE id = 108;

-- @block binary
INSERT INTO t_binary SELECT id + 100, label || ' (streamed)', b, bits, bit1, vb, vb10 FROM t_binary WHERE id < 100;
UPDATE t_binary SET b = b || '\x00'::bytea, bits = ~bits, vb = vb || B'0' WHERE id IN (101, 102, 103);
UPDATE t_binary SET b = '\x' WHERE id = 104;
UPDATE t_binary SET b = (SELECT b FROM t_binary WHERE id = 4) WHERE id = 105;

-- @block documents
INSERT INTO t_document SELECT id + 100, label || ' (streamed)', j, jb, x, u FROM t_document WHERE id < 100;
UPDATE t_document SET j = E'{"b":2,   "b":3}', jb = jb || '{"added": [true, null]}' WHERE id = 101;
UPDATE t_document SET x = '<a/>' WHERE id = 103;

-- @block network and geometry
INSERT INTO t_network SELECT id + 100, label || ' (streamed)', ip, net, mac, mac8 FROM t_network WHERE id < 100;
UPDATE t_network SET ip = '::1/128', net = '192.168.0.0/24' WHERE id = 101;
INSERT INTO t_geometry SELECT id + 100, label || ' (streamed)', pt, ln, seg, bx, op, cp, pg, ci FROM t_geometry WHERE id < 100;
UPDATE t_geometry SET pt = '(-0,0.1)', ci = '<(1,1),0>' WHERE id = 101;
INSERT INTO t_search SELECT id + 100, label || ' (streamed)', v, q FROM t_search WHERE id < 100;
UPDATE t_search SET v = v || 'added:99'::tsvector WHERE id = 101;

-- @block ranges
INSERT INTO t_range SELECT id + 100, label || ' (streamed)', r4, r8, rn, rts, rtz, rd, m4, mn, mtz, md FROM t_range WHERE id < 100;
UPDATE t_range SET r4 = r4 * '[5,20)', m4 = m4 + '{[100,200)}' WHERE id = 101;
UPDATE t_range SET rn = 'empty', md = '{}' WHERE id = 103;

-- @block arrays
INSERT INTO t_array SELECT id + 100, label || ' (streamed)', ai, at, an, af, ab, aj, au, ad, atz, aiv, atm, amood, aposint, apair, abits, apt, amoney, arange
  FROM t_array WHERE id < 100;
UPDATE t_array SET ai[5] = 5, at = array_prepend('new', at), aiv = aiv || '-1 days -02:00:00'::interval WHERE id = 102;
UPDATE t_array SET ai = '[-5:-4]={1,2}', ab = '{"\\xdeadbeef"}' WHERE id = 104;

-- @block user types
INSERT INTO t_user_types SELECT id + 100, label || ' (streamed)', mo, pi, em, pr, pa, ne, bd, st FROM t_user_types WHERE id < 100;
UPDATE t_user_types SET mo = 'it''s "quoted"', pa.n = 42, pa.span = '-1 days -02:00:00' WHERE id = 101;
UPDATE t_user_types SET ne = ROW(ROW(1, '(x,y)', '2024-02-29 12:00:00+00', '-1 year -1 day', '{"{}"}'), 'NULL', '\x5c') WHERE id = 102;

-- @block keyless
INSERT INTO s_keyless VALUES (10, 'twin', '{"b": 2}', '(2,2)', 2.0), (10, 'twin', '{"b": 2}', '(2,2)', 2.0);
UPDATE s_keyless SET note = 'one of three twins' WHERE ctid = (SELECT ctid FROM s_keyless WHERE k = 1 LIMIT 1);
DELETE FROM s_keyless WHERE ctid = (SELECT ctid FROM s_keyless WHERE k = 10 LIMIT 1);
UPDATE s_keyless SET note = 'was all null' WHERE ctid = (SELECT ctid FROM s_keyless WHERE k = 2 LIMIT 1);
DELETE FROM s_keyless WHERE ctid = (SELECT ctid FROM s_keyless WHERE k = 2 AND note IS NULL LIMIT 1);
DELETE FROM s_keyless WHERE k = 3 AND amount::text = '1.00';
UPDATE s_keyless SET amount = 1.000 WHERE k = 3;

-- @block replica identity index and composite keys
UPDATE s_ident_index SET v = 'one, updated' WHERE id = 1;
UPDATE s_ident_index SET code = 'C', region = 9 WHERE id = 2;
DELETE FROM s_ident_index WHERE id = 3;
INSERT INTO s_ident_index VALUES (4, 'B', 1, 'reuses a deleted identity');
UPDATE s_composite_key SET v = 'first, updated' WHERE a = 'k' AND b = 1 AND c = '2024-01-01';
UPDATE s_composite_key SET a = 'moved', c = '2025-01-01' WHERE a = 'k' AND b = 2;
UPDATE s_composite_key SET a = 'k', b = 2 WHERE a = 'K' AND b = 1;
DELETE FROM s_composite_key WHERE a = '' AND b = 0;
INSERT INTO s_composite_key VALUES ('', 0, '5874897-12-31', 'empty text key, last date');

-- @block toast
UPDATE s_toast SET n = n + 1 WHERE id = 1;
UPDATE s_toast SET big = big || 'changed' WHERE id = 2;
UPDATE s_toast SET n = 7, big_j = big_j || '["appended"]' WHERE id = 3;
UPDATE s_toast SET n = n + 1 WHERE id = 3;
BEGIN;
INSERT INTO s_toast SELECT 4, 0, repeat('x', 300000), '\x00', '[]', '{}', 1;
UPDATE s_toast SET n = 1 WHERE id = 4;
COMMIT;
DELETE FROM s_toast WHERE id = 1;

-- @block generated and identity
INSERT INTO s_generated (id, price, qty) VALUES (10, 1.5, 2), (11, 'Infinity', 0);
UPDATE s_generated SET qty = qty + 1 WHERE id = 1;
UPDATE s_generated SET price = 2.5 WHERE id = 11;
DELETE FROM s_generated WHERE id = 2;
INSERT INTO s_identity_always (v) VALUES ('streamed'), ('streamed too');
INSERT INTO s_identity_always OVERRIDING SYSTEM VALUE VALUES (-1, 'negative, chosen');
UPDATE s_identity_always SET v = 'updated' WHERE id = 1000;
INSERT INTO s_identity_default (v) VALUES ('streamed');
INSERT INTO s_identity_default VALUES (-5, 'explicit, negative');
INSERT INTO s_serial (v) VALUES ('streamed');
INSERT INTO s_serial (id, big, v) VALUES (1000, 9223372036854775807, 'explicit ids');
SELECT nextval('seq_standalone'), setval('seq_bigstep', 9223372036854775800, false);

-- @block partitions
INSERT INTO p_range VALUES (10, '2023-12-31', 'edge of 2023'), (11, '2024-01-01', 'edge of 2024'), (12, '-infinity', 'default');
UPDATE p_range SET v = 'updated in its partition' WHERE id = 1;
UPDATE p_range SET at = '2024-06-01', v = 'moved from 2023 to 2024' WHERE id = 10;
UPDATE p_range SET at = '2030-01-01', v = 'moved to the default partition' WHERE id = 2;
DELETE FROM p_range WHERE id = 3;
INSERT INTO p_list VALUES (10, 'uk', 'uk'), (11, 'eu', 'eu');
UPDATE p_list SET region = 'us', v = 'moved from eu to us' WHERE id = 1;
UPDATE p_list SET id = 13 WHERE id = 2;
DELETE FROM p_list WHERE id = 3;

-- @block truncate
TRUNCATE s_trunc_parent CASCADE;
INSERT INTO s_trunc_parent VALUES (3, 'p3');
INSERT INTO s_trunc_child VALUES (3, 3, 'c3');
TRUNCATE s_trunc_identity RESTART IDENTITY;
INSERT INTO s_trunc_identity (v) VALUES ('after restart');
BEGIN;
TRUNCATE s_trunc_refill RESTART IDENTITY;
INSERT INTO s_trunc_refill (v) VALUES ('refilled a'), ('refilled b');
COMMIT;

-- @block savepoints
BEGIN;
INSERT INTO s_merge VALUES (100, 1, 'kept: before the savepoint');
SAVEPOINT a;
INSERT INTO s_merge VALUES (101, 1, 'rolled back');
UPDATE s_merge SET note = 'rolled back' WHERE id = 100;
SAVEPOINT b;
DELETE FROM s_merge WHERE id = 100;
ROLLBACK TO SAVEPOINT a;
INSERT INTO s_merge VALUES (102, 2, 'kept: after the rollback');
SAVEPOINT c;
UPDATE s_merge SET qty = 3 WHERE id = 102;
RELEASE SAVEPOINT c;
COMMIT;
BEGIN;
INSERT INTO s_merge VALUES (103, 3, 'whole transaction rolled back');
ROLLBACK;

-- @block merge
MERGE INTO s_merge t
USING (VALUES (1, 10), (2, 25), (3, 0), (4, 40)) AS s(id, qty) ON t.id = s.id
WHEN MATCHED AND s.qty = 0 THEN DELETE
WHEN MATCHED AND t.qty <> s.qty THEN UPDATE SET qty = s.qty, note = 'updated by merge'
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.qty, 'inserted by merge');

-- @block two-phase commit
BEGIN;
INSERT INTO s_two_phase VALUES (1, 'committed prepared');
UPDATE s_counter SET n = n + 1000 WHERE id = 8;
PREPARE TRANSACTION 'hostile committed';
BEGIN;
INSERT INTO s_two_phase VALUES (2, 'rolled back prepared');
PREPARE TRANSACTION 'hostile rolled back';
ROLLBACK PREPARED 'hostile rolled back';
COMMIT PREPARED 'hostile committed';

-- @block identifiers
INSERT INTO "MixedCase" VALUES (2, 'Upper 2', 'lower 2');
UPDATE "MixedCase" SET "lower Case" = 'only this column' WHERE "Id" = 1;
INSERT INTO "a.b" VALUES (2, 'o', 'u', 'f.t');
UPDATE "a.b" SET "select" = 3, "user" = 'key moved' WHERE "select" = 1;
INSERT INTO "order" VALUES (2, 'from', 2);
DELETE FROM "order" WHERE "group" = 1;
INSERT INTO "Ünïcödé 😀 table" VALUES (2, 'ещё', '😀 😀');
UPDATE "Ünïcödé 😀 table" SET "空 白" = NULL WHERE "ключ" = 1;
INSERT INTO "quote""d" VALUES (2, '"');
INSERT INTO "Odd.Schema"."user" VALUES (2, 'from');
UPDATE "Odd.Schema".t_numbers SET v = 'updated' WHERE id = 1;
