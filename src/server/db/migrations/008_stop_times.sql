-- Scheduled departure of a timetable stop as an instant. train_stops.day_no is the day of journey of the ARRIVAL
-- (1 = the start date), so a stop that arrives before midnight and departs after it (arr 23:55, dep 00:10) departs
-- on the next day. At the source (no arrival) the departure is on day_no; at the terminus (no departure) this is the
-- arrival. Times are IST wall-clock 'HH:MM'. Used by bertallotmentanomaly (the NT grace ends at a departure).
CREATE OR REPLACE FUNCTION stop_departure(start_date date, day_no int, arr_time text, dep_time text)
  RETURNS timestamptz
  LANGUAGE sql IMMUTABLE AS $$
  SELECT ((start_date + (day_no - 1)) + COALESCE(dep_time, arr_time)::time
          + CASE WHEN dep_time < arr_time THEN interval '1 day' ELSE interval '0 days' END) AT TIME ZONE 'Asia/Kolkata'
$$;
