-- key: run_id
-- The Berth Allotment Anomaly rows of the runs, worked out from the raw rows (hht_alloc_anomalies).
SELECT * FROM hht_alloc_anomalies($1, $2)
