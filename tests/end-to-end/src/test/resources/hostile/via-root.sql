-- After stream.sql: the publication now publishes partitions' changes as their root table's
-- (publish_via_partition_root); the same kinds of change again, then the limits of what is left.
ALTER PUBLICATION hostile SET (publish_via_partition_root = true);
INSERT INTO p_range VALUES (20, '2023-03-03', 'via root, 2023'), (21, '2099-01-01', 'via root, default');
UPDATE p_range SET v = 'via root, updated in its partition' WHERE id = 11;
UPDATE p_range SET at = '2023-07-07', v = 'via root, moved from 2024 to 2023' WHERE id = 20 OR id = 1;
DELETE FROM p_range WHERE id = 12;
INSERT INTO p_list VALUES (20, 'eu', 'via root'), (21, 'us', 'via root');
UPDATE p_list SET region = 'uk', v = 'via root, moved from us to uk' WHERE id = 21;
UPDATE p_list SET id = 23 WHERE id = 20;
DELETE FROM p_list WHERE id = 4;
