-- Rows on the primary before the shipper starts: the initial copy carries them (snapshot reads).
-- stream.sql writes the same kinds of values again while streaming, so both paths see each case.

INSERT INTO t_numbers VALUES
  (1, 'minimum', -32768, -2147483648, -9223372036854775808, '-Infinity', '-99999999999999.999999',
   ('-' || repeat('9', 500) || '.' || repeat('9', 500))::numeric, '-3.4028235e38', '-1.7976931348623157e308',
   '-92233720368547758.08', 0, false),
  (2, 'maximum', 32767, 2147483647, 9223372036854775807, 'Infinity', '99999999999999.999999',
   (repeat('9', 500) || '.' || repeat('9', 500))::numeric, '3.4028235e38', '1.7976931348623157e308',
   '92233720368547758.07', 4294967295, true),
  (3, 'not a number', 0, 0, 0, 'NaN', '0.000000', ('0.' || repeat('0', 499) || '1')::numeric, 'NaN', 'NaN', '0.00', 1, true),
  (4, 'negative zero and subnormals', -1, -1, -1, '-0.000', '-0.000001', ('-0.' || repeat('0', 499) || '1')::numeric,
   '-0', '-0', '-0.01', 2, false),
  (5, 'smallest magnitudes', 1, 1, 1, ('0.' || repeat('0', 16382) || '1')::numeric, '0.000001', '1e-500', '1.4e-45', '4.9e-324',
   '0.01', 3, true),
  (6, 'widest numeric', 2, 2, 2, ('9' || repeat('0', 131071))::numeric, '-12345678901234.5', (repeat('1', 500) || '.5')::numeric,
   '1.17549435e-38', '2.2250738585072014e-308', '1234.5', 4, false),
  (7, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (8, 'ordinary', 42, 123456, 1234567890123, '3.14159265358979323846264338327950288419716939937510', '2.718282',
   '1.41421356237309504880', '0.1', '0.1', '12.34', 1234, true);

INSERT INTO t_text VALUES
  (1, '4-byte UTF-8', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀👍🏽👨‍👩‍👧 𠜎 ﷺ', '😀😀😀😀😀😀😀😀😀😀', 'é😀', 'é', 'näme 😀', 'bp 😀', 'ü'),
  (2, 'control characters', E'tab\there\nnewline\r\ncrlf\bbs\fff\x01\x1f end', E'a\tb\nc', E'\t', E'\t', E'n\tm', E'\n', E'\x7f'),
  (3, 'quotes and backslashes', E'single '' double " backslash \\ \\\\ \\x41 \\N {braces} [brackets] (parens) ,;',
   E'\\', E'''"', '''', E'\\"', E'"', E'\\N'),
  (4, 'empty and blank', '', '', '', ' ', '', '', ''),
  (5, 'looks like something else', 'NULL', 'null', 'NULL', 'N', 'NULL', '\N', 'true'),
  (6, 'padding', '  leading and trailing  ', ' x ', 'ab', 'a', repeat('n', 63), '   ', ' '),
  (7, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (8, 'long text', repeat('long text with ünïcödé 😀 ', 20000), 'abcdefghij', 'abcdefgh', 'z', 'long', repeat('x', 3000), repeat('y', 3000));

INSERT INTO t_time VALUES
  (1, 'infinity', 'infinity', 'infinity', 'infinity', '24:00:00', '24:00:00-15:59', '178000000 years',
   'infinity', 'infinity', '24:00:00', '178000000 years'),
  (2, '-infinity', '-infinity', '-infinity', '-infinity', '00:00:00', '00:00:00+15:59', '-178000000 years',
   '-infinity', '-infinity', '00:00:00', '-178000000 years'),
  (3, 'earliest', '4714-11-24 BC', '4714-11-24 00:00:00 BC', '4714-11-24 00:00:00+00 BC', '00:00:00.000001',
   '00:00:00.000001+15:59:59', '-00:00:00.000001', '4714-11-24 00:00:00 BC', '4714-11-24 00:00:00.001+00 BC', '00:00:00.01', '-1 mon'),
  (4, 'latest', '5874897-12-31', '294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999+00', '23:59:59.999999',
   '23:59:59.999999-15:59:59', '177999999 years 11 mons 2147483647 days 2147483647:59:59.999999',
   '294276-12-31 23:59:59', '294276-12-31 23:59:59.999+00', '23:59:59.99', '177999999 years 11 mons'),
  (5, 'BC, year 0 and calendar seams', '0001-12-31 BC', '0044-03-15 12:00:00.5 BC', '0001-01-01 00:00:00+00',
   '12:00:00', '12:00:00+05:45', '1 day -00:00:00.000001', '1582-10-10 00:00:00', '1582-10-04 23:59:59.999+00',
   '12:00:00.12', '1 year -1 mon'),
  (6, 'leap days and odd zones', '2000-02-29', '1900-02-28 23:59:59.999999', '2024-04-07 02:45:00+13:45', '02:45:00',
   '02:45:00+13:45', '-1 days +02:00:00', '2016-12-31 23:59:59', '1969-12-31 23:59:59.999+00', '00:00:00', '-1 year -1 mon'),
  (7, 'mixed-sign intervals', '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', '00:00:01', '00:00:01-00:30',
   '-1 year -2 mons +3 days -04:05:06.789012', '1999-12-31 23:59:59', '2000-01-01 00:00:00+00', '00:00:00.5',
   '3 years 7 mons'),
  (8, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (9, 'infinite intervals', '2024-02-29', '2024-02-29 12:00:00', '2024-02-29 12:00:00+00', '12:00:00', '12:00:00+00',
   'infinity', '2024-02-29 12:00:00', '2024-02-29 12:00:00+00', '12:00:00', '-infinity'),
  (10, 'the days the Julian-Gregorian switch skipped', '1582-10-10', '1582-10-10 12:00:00', '1582-10-14 23:59:59+00',
   '12:00:00', '12:00:00-12', '1 mon', '1582-10-05 00:00:00', '1582-10-15 00:00:00+00', '12:00:00', '1 mon');

INSERT INTO t_binary VALUES
  (1, 'empty', '\x', B'000000000000', B'0', B'', B''),
  (2, 'every byte value', (SELECT string_agg(set_byte('\x00'::bytea, 0, g), ''::bytea ORDER BY g) FROM generate_series(0, 255) g),
   B'100000000001', B'1', B'1', B'0000000001'),
  (3, 'looks like text', convert_to(E'\\x41 \\\\ '' " \\000 NULL', 'UTF8'), B'011111111110', B'0', repeat('01', 500)::varbit, B'1111111111'),
  (4, 'several MB, incompressible', (SELECT string_agg(decode(md5(g::text), 'hex'), ''::bytea) FROM generate_series(1, 200000) g),
   B'010101010101', B'1', B'00000', B'00000'),
  (5, 'all null', NULL, NULL, NULL, NULL, NULL);

INSERT INTO t_document VALUES
  (1, 'json text kept', E'{ "b" : 1,\n\t"a" : [1, 2.50, 1e3],  "b": "duplicate key", "z": null }',
   E'{ "b" : 1, "a" : [1, 2.50, 1e3], "b": "duplicate key", "z": null }',
   '<doc a="1"><x>text &amp; more</x><![CDATA[<raw>]]><!-- c --></doc>', '00000000-0000-0000-0000-000000000000'),
  (2, 'json scalars and unicode', '"\u00e9\ud83d\ude00 \\ \" \n"', '"\u00e9 😀 \\ \" \n"', 'plain text content', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  (3, 'json numbers', '[1.0, -0, 1e400, 0.00000000000000000000001]', '[1.0, -0, 1e400, 0.00000000000000000000001, 18446744073709551616]',
   '<?xml version="1.0"?><r>é😀</r>', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
  (4, 'json null and empty', 'null', '{}', '', NULL),
  (5, 'all null', NULL, NULL, NULL, NULL);

INSERT INTO t_network VALUES
  (1, 'v4', '192.168.1.5/24', '10.1.0.0/16', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05'),
  (2, 'v6', '2001:db8::1/64', '2001:db8::/32', 'ff:ff:ff:ff:ff:ff', 'ff:ff:ff:ff:ff:ff:ff:ff'),
  (3, 'edges', '0.0.0.0/0', '0.0.0.0/0', '00:00:00:00:00:00', '08:00:2b:ff:fe:01:02:03'),
  (4, 'v4 mapped', '::ffff:1.2.3.4/128', '::/0', '0a:0b:0c:0d:0e:0f', '00:00:00:00:00:00:00:00'),
  (5, 'all null', NULL, NULL, NULL, NULL);

INSERT INTO t_geometry VALUES
  (1, 'ordinary', '(1.5,-2.25)', '{1,-1,0.5}', '[(1,2),(3,4)]', '(3,4),(1,2)', '[(0,0),(1,1),(2,0)]',
   '((0,0),(1,1),(2,0))', '((0,0),(1,1),(1,0))', '<(1,2),3>'),
  (2, 'precision and specials', '(0.1,-0)', '{0.1,0.2,0.3}', '[(1e300,-1e-300),(0,0)]', '(1e-300,1e300),(-1e300,-1e-300)',
   '[(0.30000000000000004,1)]', '((1,1))', '((0.1,0.2))', '<(0,0),1e-300>'),
  (3, 'non-finite', '(Infinity,-Infinity)', '{1,0,-Infinity}', '[(NaN,0),(1,1)]', '(Infinity,Infinity),(-Infinity,-Infinity)',
   '[(NaN,NaN)]', '((Infinity,0),(0,0))', '((0,0),(Infinity,Infinity))', '<(NaN,0),Infinity>'),
  (4, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

INSERT INTO t_search VALUES
  (1, 'weights and positions', 'a fat cat:1A,2B sat:3C on:4D the:5 mat:16383', '!(fat & cat) <-> sat:* | ''mat'':AB'),
  (2, 'quoted lexemes', $$'it''s' 'back\\slash' 'spa ce' 'ü😀'$$, $$'it''s' & 'spa ce':*$$),
  (3, 'empty', '', ''),
  (4, 'all null', NULL, NULL);

INSERT INTO t_range VALUES
  (1, 'bounded', '[1,10)', '[-9223372036854775808,9223372036854775807)', '(1.5,2.50]', '[2024-01-01 00:00:00,2024-02-01 00:00:00)',
   '["2024-01-01 00:00:00+00","2024-02-01 12:00:00.000001+05:30")', '[2024-01-01,2024-02-01)',
   '{[1,3),[5,7)}', '{[1.5,2.5],(3,4)}', '{["2024-01-01 00:00:00+00","2024-01-02 00:00:00+00")}', '{[2024-01-01,2024-01-05)}'),
  (2, 'empty', 'empty', 'empty', 'empty', 'empty', 'empty', 'empty', '{}', '{}', '{}', '{}'),
  (3, 'unbounded and infinite', '(,)', '[0,)', '(,NaN]', '[-infinity,infinity]', '(,infinity)', '[-infinity,)',
   '{(,0),[5,)}', '{(,-1e300],[NaN,NaN]}', '{[-infinity,infinity]}', '{(,2000-01-01),[2000-01-02,infinity)}'),
  (4, 'BC bounds', '[-2147483648,2147483647)', '[0,1)', '[-0.000001,0.000001]', '[4714-11-24 00:00:00 BC,0001-01-01 00:00:00)',
   '["4714-11-24 00:00:00+00 BC",)', '[4714-11-24 BC,5874897-12-31)', '{[1,2)}', '{[0,0]}', '{}', '{[0044-03-15 BC,0044-03-16 BC)}'),
  (5, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

INSERT INTO t_array VALUES
  (1, 'shapes', '[0:1][-1:1]={{1,2,3},{4,NULL,6}}', '{"a b",NULL,"q\"uote","back\\slash","NULL","",",{}"}',
   '{1.50,NaN,-Infinity,-0.001}', '{-0,NaN,Infinity,1e-320}', '{"\\x00ff",NULL,"\\x"}', '{"{\"a\": 1}",null,"[]"}',
   '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}', '{2024-02-29,infinity,4714-11-24 BC,NULL}',
   '{"2024-01-01 00:00:00.000001+00","-infinity",NULL}', '{"-1 days +02:00:00","-1 years -2 mons",infinity,NULL}',
   '{"10:11:12.345678+05:30","24:00:00-15:59"}', '{sad,"happy 😀","it''s \"quoted\"","a,b{c}\\d","NULL",""}',
   '{1,2147483647}', '{"(1,x,\"2024-01-01 00:00:00+00\",\"-1 days -02:00:00\",\"{a,NULL}\")",NULL,"(,,,,)"}',
   '{101,"",0000000001}', '{"(1,2)","(NaN,-0)"}', '{"$1.23","-$92,233,720,368,547,758.08"}', '{"[1,2)",empty,"(,)"}'),
  (2, 'empty and lower bounds', '{}', '[5:5]={x}', '[-3:-2]={0,1}', '{}', '{}', '{}', '{}', '[0:0]={2000-01-01}', '{}', '{}', '{}',
   '{}', '[2:2]={7}', '{}', '{}', '{}', '{}', '{}'),
  (3, 'three dimensions', '{{{1,2},{3,4}},{{5,6},{7,8}}}', '{{{a},{b}},{{NULL},{"}"}}}', '{{1},{2}}', '{{1,2}}', '{{"\\x01"},{NULL}}',
   '{{"1"},{"2"}}', NULL, NULL, NULL, '{{"1 day","2 days"},{"-1 day","-2 days"}}', NULL, '{{sad},{ok}}', '{{1}}', NULL, NULL, NULL, NULL, NULL),
  (4, 'all null elements', '{NULL,NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}',
   '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}'),
  (5, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

INSERT INTO t_user_types VALUES
  (1, 'every label', 'happy 😀', 1, 'a@b.c', '-9999999999.99',
   ROW(-2147483648, E'ü\t"quoted"\\', '2024-02-29 23:59:59.999999+00', '-1 days -02:00:00', '{x,NULL,"y z"}'),
   ROW(ROW(1, 'inner', 'infinity', '1 mon -1 day', '{}'), 'it''s "quoted"', '\x00ff5c22'), '4714-11-24 BC', '294276-12-31 23:59:59.999999'),
  (2, 'odd labels', 'a,b{c}\d', 2147483647, 'x@y', '0.00', ROW(NULL, NULL, NULL, NULL, NULL), ROW(NULL, NULL, NULL), '0044-03-15 BC', '294276-12-31 23:59:59'),
  (3, 'empty label', '', 7, '@', '0.01', ROW(0, '', '-infinity', '0', '{""}'), ROW(ROW(NULL, NULL, NULL, NULL, NULL), '', '\x'), 'infinity', '0044-03-15 12:00:00.5 BC'),
  (4, 'label NULL', 'NULL', 8, 'NULL@x', '-0.01', ROW(1, 'NULL', NULL, NULL, '{NULL,"NULL"}'), ROW(NULL, 'NULL', NULL), '-infinity', 'infinity'),
  (5, 'all null', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- shapes
INSERT INTO s_keyless VALUES
  (1, 'twin', '{"a": 1}', '(1,1)', 1.0), (1, 'twin', '{"a": 1}', '(1,1)', 1.0), (1, 'twin', '{"a": 1}', '(1,1)', 1.0),
  (2, NULL, NULL, NULL, NULL), (2, NULL, NULL, NULL, NULL),
  (3, 'scale differs', '{"a":1}', '(1,1)', 1.00), (3, 'scale differs', '{"a":1}', '(1,1)', 1.0);

INSERT INTO s_ident_index VALUES (1, 'A', 1, 'one'), (2, 'A', 2, 'two'), (3, 'B', 1, 'three');

INSERT INTO s_composite_key VALUES
  ('k', 1, '2024-01-01', 'first'), ('k', 2, '2024-01-01', 'second'), ('K', 1, '2024-01-01', 'case differs'),
  ('', 0, '4714-11-24 BC', 'empty text key'), ('k ', 1, '2024-01-01', 'trailing space in key');

INSERT INTO s_toast SELECT g, 0, repeat(md5(g::text), 40000), (SELECT string_agg(decode(md5(g::text || i), 'hex'), ''::bytea) FROM generate_series(1, 20000) i),
  (SELECT jsonb_agg(md5(i::text)) FROM generate_series(1, 20000) i), (SELECT array_agg(i) FROM generate_series(1, 100000) i),
  ('1' || repeat('0', 100000))::numeric
  FROM generate_series(1, 3) g;

INSERT INTO s_generated (id, price, qty) VALUES (1, 9.99, 3), (2, 0.01, 0), (3, 'NaN', 1);

INSERT INTO s_identity_always (v) VALUES ('a'), ('b');
INSERT INTO s_identity_always OVERRIDING SYSTEM VALUE VALUES (5, 'chosen by the application');
INSERT INTO s_identity_default (v) VALUES ('a');
INSERT INTO s_identity_default VALUES (100, 'explicit');
INSERT INTO s_serial (v) VALUES ('a'), ('b'), ('c');
SELECT nextval('seq_standalone'), nextval('seq_standalone');
SELECT nextval('seq_bigstep');

INSERT INTO p_range VALUES (1, '2023-06-01', 'in 2023'), (2, '2024-02-29', 'in 2024'), (3, '1999-01-01', 'default'),
  (4, 'infinity', 'default, infinity');
INSERT INTO p_list VALUES (1, 'eu', 'eu'), (2, 'eu', 'eu'), (3, 'uk', 'uk'), (4, 'us', 'us');

INSERT INTO s_trunc_parent VALUES (1, 'p1'), (2, 'p2');
INSERT INTO s_trunc_child VALUES (1, 1, 'c1'), (2, 2, 'c2');
INSERT INTO s_trunc_identity (v) VALUES ('a'), ('b');
INSERT INTO s_trunc_refill (v) VALUES ('a'), ('b');

INSERT INTO s_counter (id) SELECT g FROM generate_series(1, 8) g;
INSERT INTO s_merge VALUES (1, 10, 'kept'), (2, 20, 'updated by merge'), (3, 30, 'deleted by merge');

INSERT INTO "MixedCase" VALUES (1, 'Upper', 'lower');
INSERT INTO "a.b" VALUES (1, 'order', 'user', 'from.to');
INSERT INTO "order" VALUES (1, 'table', 1);
INSERT INTO "Ünïcödé 😀 table" VALUES (1, 'значение', '空 白');
INSERT INTO "quote""d" VALUES (1, ' lead and trail ');
INSERT INTO "Odd.Schema"."user" VALUES (1, 'select');
INSERT INTO "Odd.Schema".t_numbers VALUES (1, 'same table name, other schema');
