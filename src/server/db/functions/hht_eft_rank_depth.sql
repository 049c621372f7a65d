-- How many rows a range keeps: two pages of 50. A setting of the database, so a test can make it small.
CREATE OR REPLACE FUNCTION hht_eft_rank_depth() RETURNS int LANGUAGE sql STABLE AS 'SELECT 100';
