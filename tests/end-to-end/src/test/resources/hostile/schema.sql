-- The hostile schema: created on the primary and on the replica before the shipper starts.
-- A catalogue of what real applications put in PostgreSQL and replication tools get wrong. Each table
-- carries an int key (where it has one) and a label saying what its rows stand for; rows are in initial.sql
-- (there before the initial copy) and stream.sql (written while streaming).

-- user-defined types: an enum with hostile labels, domains, composites (one nesting another)
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy 😀', 'it''s "quoted"', 'a,b{c}\d', 'NULL', '');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE DOMAIN email AS text CHECK (VALUE LIKE '%@%');
CREATE DOMAIN price AS numeric(12, 2);
CREATE DOMAIN birthday AS date;
CREATE DOMAIN stamp AS timestamp(6);
CREATE TYPE pair AS (n integer, t text, at timestamptz, span interval, tags text[]);
CREATE TYPE nested AS (p pair, m mood, raw bytea);

-- integers at their limits, numeric specials and extreme precision/scale, floats with -0, NaN, ±Infinity
-- and subnormals, money at its limits
CREATE TABLE t_numbers (
  id int PRIMARY KEY, label text NOT NULL,
  i2 smallint, i4 integer, i8 bigint,
  n numeric, n_scaled numeric(20, 6), n_wide numeric(1000, 500),
  f4 real, f8 double precision,
  m money, o oid, b boolean
);

-- text: 4-byte UTF-8, control characters, quotes and backslashes, char(n) padding, "char", name
CREATE TABLE t_text (
  id int PRIMARY KEY, label text NOT NULL,
  t text, vc varchar(10), c char(8), c1 "char", nm name, bp bpchar, cc text COLLATE "C"
);

-- dates, times and intervals: infinities, BC, the last representable instants, 24:00, ±15:59 offsets
CREATE TABLE t_time (
  id int PRIMARY KEY, label text NOT NULL,
  d date, ts timestamp, tstz timestamptz, tm time, tmtz timetz, iv interval,
  ts0 timestamp(0), tstz3 timestamptz(3), tm2 time(2), iv_ym interval year to month
);

-- binary strings and bit strings, bytea from empty to several MB
CREATE TABLE t_binary (
  id int PRIMARY KEY, label text NOT NULL,
  b bytea, bits bit(12), bit1 bit, vb varbit, vb10 varbit(10)
);

-- json keeps its text (whitespace, duplicate keys, key order); jsonb normalises; xml; uuid
CREATE TABLE t_document (
  id int PRIMARY KEY, label text NOT NULL,
  j json, jb jsonb, x xml, u uuid
);

-- network addresses
CREATE TABLE t_network (
  id int PRIMARY KEY, label text NOT NULL,
  ip inet, net cidr, mac macaddr, mac8 macaddr8
);

-- geometry: none of these has an = operator, so a keyless table of them is matched as text
CREATE TABLE t_geometry (
  id int PRIMARY KEY, label text NOT NULL,
  pt point, ln line, seg lseg, bx box, op path, cp path, pg polygon, ci circle
);

-- full text search
CREATE TABLE t_search (
  id int PRIMARY KEY, label text NOT NULL,
  v tsvector, q tsquery
);

-- ranges and multiranges: empty, infinite and unbounded bounds
CREATE TABLE t_range (
  id int PRIMARY KEY, label text NOT NULL,
  r4 int4range, r8 int8range, rn numrange, rts tsrange, rtz tstzrange, rd daterange,
  m4 int4multirange, mn nummultirange, mtz tstzmultirange, md datemultirange
);

-- arrays: several dimensions, lower bounds other than 1, NULL elements, empty; of enums, domains, composites
CREATE TABLE t_array (
  id int PRIMARY KEY, label text NOT NULL,
  ai int[], at text[], an numeric[], af float8[], ab bytea[], aj jsonb[], au uuid[],
  ad date[], atz timestamptz[], aiv interval[], atm timetz[],
  amood mood[], aposint posint[], apair pair[], abits varbit[], apt point[], amoney money[], arange int4range[]
);

-- user-defined types as columns
CREATE TABLE t_user_types (
  id int PRIMARY KEY, label text NOT NULL,
  mo mood, pi posint, em email, pr price, pa pair, ne nested, bd birthday, st stamp
);

-- no key at all: REPLICA IDENTITY FULL, duplicate rows are legitimate, columns without = (json, point)
CREATE TABLE s_keyless (k int, note text, doc json, pt point, amount numeric);
ALTER TABLE s_keyless REPLICA IDENTITY FULL;

-- identity through a unique index that is not the primary key
CREATE TABLE s_ident_index (id int PRIMARY KEY, code text NOT NULL, region int NOT NULL, v text);
CREATE UNIQUE INDEX s_ident_index_code ON s_ident_index (code, region);
ALTER TABLE s_ident_index REPLICA IDENTITY USING INDEX s_ident_index_code;

-- a composite primary key of three types, and key updates
CREATE TABLE s_composite_key (a text, b int, c date, v text, PRIMARY KEY (a, b, c));

-- TOASTed values left unchanged while another column changes
CREATE TABLE s_toast (id int PRIMARY KEY, n int, big text, big_b bytea, big_j jsonb, big_a int[], big_n numeric);
ALTER TABLE s_toast ALTER COLUMN big SET STORAGE EXTERNAL, ALTER COLUMN big_b SET STORAGE EXTERNAL,
  ALTER COLUMN big_j SET STORAGE EXTERNAL, ALTER COLUMN big_a SET STORAGE EXTERNAL;

-- stored generated columns are computed on the replica, never written
CREATE TABLE s_generated (
  id int PRIMARY KEY, price numeric NOT NULL, qty int NOT NULL,
  total numeric GENERATED ALWAYS AS (price * qty) STORED,
  label text GENERATED ALWAYS AS ('#' || id || ': ' || qty) STORED
);

-- identity and serial columns, and sequences of their own
CREATE TABLE s_identity_always (id bigint GENERATED ALWAYS AS IDENTITY (START WITH 1000 INCREMENT BY 7) PRIMARY KEY, v text);
CREATE TABLE s_identity_default (id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v text);
CREATE TABLE s_serial (id serial PRIMARY KEY, big bigserial, v text);
CREATE SEQUENCE seq_standalone START WITH -100 MINVALUE -1000 MAXVALUE 1000 INCREMENT BY -3 CYCLE;
CREATE SEQUENCE seq_bigstep AS bigint START WITH 9223372036854775000 INCREMENT BY 100 MAXVALUE 9223372036854775807;

-- partitioned tables: by range (with a default partition) and by list, a sub-partitioned level
CREATE TABLE p_range (id int, at date NOT NULL, v text, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
CREATE TABLE p_range_2023 PARTITION OF p_range FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE p_range_2024 PARTITION OF p_range FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE p_range_other PARTITION OF p_range DEFAULT;
CREATE TABLE p_list (id int, region text NOT NULL, v text, PRIMARY KEY (id, region)) PARTITION BY LIST (region);
CREATE TABLE p_list_eu PARTITION OF p_list FOR VALUES IN ('eu', 'uk') PARTITION BY HASH (id);
CREATE TABLE p_list_eu_0 PARTITION OF p_list_eu FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE p_list_eu_1 PARTITION OF p_list_eu FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE p_list_us PARTITION OF p_list FOR VALUES IN ('us');

-- TRUNCATE ... CASCADE through a foreign key, TRUNCATE ... RESTART IDENTITY (s_trunc_refill: refilled in the same
-- transaction, its sequence ends where it was, so the shipper has no new state to send)
CREATE TABLE s_trunc_parent (id int PRIMARY KEY, v text);
CREATE TABLE s_trunc_child (id int PRIMARY KEY, parent int REFERENCES s_trunc_parent, v text);
CREATE TABLE s_trunc_identity (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
CREATE TABLE s_trunc_refill (id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v text);

-- counters several sessions update at once
CREATE TABLE s_counter (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0, last_session int);

-- MERGE target
CREATE TABLE s_merge (id int PRIMARY KEY, qty int NOT NULL, note text);

-- two-phase commit target
CREATE TABLE s_two_phase (id int PRIMARY KEY, v text);

-- identifiers: mixed case, spaces, Unicode, dots, SQL keywords, quotes; a schema with a dot in its name
CREATE TABLE "MixedCase" ("Id" int PRIMARY KEY, "Value" text, "lower Case" text);
CREATE TABLE "a.b" ("select" int PRIMARY KEY, "order" text, "user" text, "from.to" text);
CREATE TABLE "order" ("group" int PRIMARY KEY, "table" text, "where" int);
CREATE TABLE "Ünïcödé 😀 table" ("ключ" int PRIMARY KEY, "значение" text, "空 白" text);
CREATE TABLE "quote""d" ("co""l" int PRIMARY KEY, " lead and trail " text);
CREATE SCHEMA "Odd.Schema";
CREATE TABLE "Odd.Schema"."user" (id int PRIMARY KEY, "select" text);
CREATE TABLE "Odd.Schema".t_numbers (id int PRIMARY KEY, v text);

-- the catch-up marker (Replication.awaitCaughtUp inserts one and waits for it on the replica)
CREATE TABLE marker (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp());

-- intervals at the type's limits: empty until the last phase (interval-limits.sql)
CREATE TABLE t_interval_limits (id int PRIMARY KEY, label text NOT NULL, iv interval);
