-- The SHA-256 of a stored batch's records (canonical JSON): a batch id sent again with other records is refused
-- (409) instead of answered as a replay with the new records dropped. NULL for batches stored before: a replay.
ALTER TABLE hht_sync_batches ADD COLUMN records_sha256 text;
