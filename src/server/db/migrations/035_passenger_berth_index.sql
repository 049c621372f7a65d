-- Passengers looked up by berth and RAC passengers by run, so Berth Allotment Anomaly reads the passengers of a
-- day's allotments by index instead of the whole day (a national day's partition is 2 M passengers).
-- (run_id, coach_id, berth_no) serves every lookup the (run_id, coach_id) index served, so it replaces it.
CREATE INDEX passengers_run_berth ON passengers (run_id, coach_id, berth_no);
DROP INDEX passengers_run;
-- Only the passengers still on RAC: a few per cent of a run.
CREATE INDEX passengers_rac ON passengers (run_id) WHERE current_status LIKE 'RAC%';
