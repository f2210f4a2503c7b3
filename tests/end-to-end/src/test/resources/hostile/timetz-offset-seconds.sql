-- A timetz whose zone offset has seconds (legal: PostgreSQL keeps offsets to the second, up to ±15:59:59):
-- Debezium's stream decoder cannot parse it and stops for good. (An initial copy carries it exactly: initial.sql.)
INSERT INTO t_time (id, label, tmtz) VALUES (1000, 'offset with seconds, streamed', '00:00:00.000001+15:59:59');
