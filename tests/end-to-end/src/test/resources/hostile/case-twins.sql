-- Columns whose names differ only by case: legal and distinct in PostgreSQL ("Value" and "value"), refused by
-- the Debezium engine whole (it stops, naming the table), so created only in the last phase.
CREATE TABLE case_twins (id int PRIMARY KEY, "Value" text, "value" text);
INSERT INTO case_twins VALUES (1, 'upper', 'lower');
