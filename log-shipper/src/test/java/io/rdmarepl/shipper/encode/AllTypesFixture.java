package io.rdmarepl.shipper.encode;

/** DDL and rows of the every-type test table {@code enc.all_types}. */
final class AllTypesFixture {
    static final String SETUP = """
        CREATE SCHEMA IF NOT EXISTS enc;
        CREATE TYPE enc.mood AS ENUM ('sad', 'ok', 'happy 😀');
        CREATE DOMAIN enc.posint AS integer CHECK (VALUE > 0);
        CREATE DOMAIN enc.email AS text;
        CREATE TABLE enc.all_types (
          id int PRIMARY KEY,
          c_int2 int2, c_int4 int4, c_int8 int8,
          c_num numeric, c_num_scaled numeric(45,5),
          c_float4 float4, c_float8 float8,
          c_bool bool,
          c_text text, c_varchar varchar(20), c_bpchar char(8),
          c_bytea bytea,
          c_date date, c_time time, c_timetz timetz, c_ts timestamp, c_tstz timestamptz, c_tstz3 timestamptz(3),
          c_interval interval,
          c_uuid uuid, c_json json, c_jsonb jsonb,
          c_inet inet, c_cidr cidr, c_macaddr macaddr, c_macaddr8 macaddr8,
          c_int_arr int[], c_text_arr text[], c_num_arr numeric[], c_2d int[][], c_bounds int[],
          c_tstz_arr timestamptz[], c_mood_arr enum_placeholder, c_money_arr money[], c_bytea_arr bytea[],
          c_mood enc.mood, c_posint enc.posint, c_email enc.email,
          c_money money, c_point point, c_box box, c_tsvector tsvector, c_int4range int4range, c_tstzrange tstzrange,
          c_bit bit(5), c_varbit varbit, c_xml xml, c_oid oid, c_name name, c_char "char", c_pg_lsn pg_lsn
        );
        """.replace("enum_placeholder", "enc.mood[]");

    static final String ROW_1 = """
        INSERT INTO enc.all_types VALUES (1,
          -32768, 2147483647, -9223372036854775808,
          '1234567890123456789012345678901234567890.0123456789', '-1234567890123456789012345678901234567.12340',
          'NaN', '-0',
          true,
          E'unicode \u00e9\u4e2d 😀 tab\\t quote'' backslash\\\\', 'varchar', 'ab',
          '\\x00ff0001'::bytea,
          '2024-02-29', '23:59:59.999999', '10:11:12.345678+05:30', '2024-01-02 03:04:05.123456', '2024-06-30 23:59:59.987654+02', '1999-12-31 23:59:59.999+00',
          '1 year 2 mons -3 days 04:05:06.789012',
          'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"b": 1,  "a": [1, 2]}', '{"b": 1,  "a": [1, 2.50]}',
          '192.168.1.5/24', '10.1.0.0/16', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05',
          '{1,NULL,3}', '{"a b",NULL,"q\\"uote","NULL",""}', '{1.50,NaN,-0.001}', '{{1,2},{3,4}}', '[0:2]={7,8,9}',
          '{"2024-01-01 00:00:00.000001+00",NULL}', '{sad,"happy 😀"}', '{1.23,-4.56}', '{"\\\\x00ff",NULL}',
          'happy 😀', 42, 'a@b.c',
          '-1234.56', '(1.5,-2.25)', '(1,2),(3,4)', 'a:1 fat:2 cat:3', '[1,10)', '["2024-01-01 00:00:00+00","2024-02-01 00:00:00+00")',
          B'10100', B'0010100', '<a>x</a>', 4000000000, 'a name', 'x', '16/B374D848'
        )
        """;

    static final String ROW_2 = """
        INSERT INTO enc.all_types (id, c_num, c_num_scaled, c_float4, c_float8, c_date, c_ts, c_tstz, c_time, c_interval, c_text_arr, c_int_arr)
        VALUES (2, 'NaN', 'NaN', '-Infinity', 'Infinity', 'infinity', '-infinity', 'infinity', '24:00:00', '-00:00:00.000001', '{}', '{}')
        """;

    static final String ROW_3 = """
        INSERT INTO enc.all_types (id, c_num, c_num_scaled, c_float4, c_float8, c_date, c_ts, c_tstz, c_time, c_interval)
        VALUES (3, '-Infinity', '0.00000', '1.17549435e-38', '4.9e-324', '-infinity', 'infinity', '-infinity', '00:00:00', '178000000 years')
        """;

    static final String ROW_4 = "INSERT INTO enc.all_types (id) VALUES (4)";

    private AllTypesFixture() {
    }
}
