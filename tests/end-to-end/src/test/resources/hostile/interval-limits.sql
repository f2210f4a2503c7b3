-- Intervals at the type's limits (and PostgreSQL 17's infinite intervals), written last: the Debezium
-- engine cannot carry the first two (pgjdbc's PGInterval parses the hours as an int) and stops for good.
INSERT INTO t_interval_limits VALUES
  (1, 'largest', '178000000 years 11 mons 2147483647 days 2562047788:00:54.775807'),
  (2, 'smallest', '-178000000 years -11 mons -2147483648 days -2562047788:00:54.775807');
