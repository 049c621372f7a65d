-- TteManningReport: TTEs who signed on for a beat on the date (IST; beats without sign-on count on the run's
-- start date), with trains worked, coaches manned with an HHT and the HHTs used. Runs that started up to 3 days
-- earlier are considered so that later beats of long journeys are included.
-- Reads the TTE duty rollup (migration 020: a row per run, duty date, lobby and TTE with its beats, coaches manned,
-- HHTs and sign-on times). Paged by the server in this order, which an index has (migration 023): a page reads its
-- TTEs' rows and stops, whatever the number of TTEs on duty that day. Coaches manned are the TTE's over every lobby
-- shown, as they were counted from the beats: looked up per listed row, as are the names (a join here would stop
-- PostgreSQL from planning the grouped rows for the page's LIMIT; every beat's TTE is in ttes, a foreign key). The
-- rows keep the grouped rows' order (lobby, TTE): a second ORDER BY out here would have the same effect.
SELECT o.lobby,
       o.tte_id,
       (SELECT te.name FROM ttes te WHERE te.tte_id = o.tte_id) AS tte_name,
       (SELECT te.designation FROM ttes te WHERE te.tte_id = o.tte_id) AS designation,
       (SELECT mask_mobile(te.mobile_no) FROM ttes te WHERE te.tte_id = o.tte_id) AS mobile,
       o.trains_worked,
       o.trains,
       o.beats,
       (SELECT sum(b.coaches_manned)
          FROM rollup_tte_duty b
         WHERE b.tte_id = o.tte_id
           AND b.duty_date = :srcDate::date
           AND b.start_date BETWEEN :srcDate::date - 3 AND :srcDate::date
           AND (:zone::text IS NULL OR b.zone_code = :zone)
           AND (:division::text IS NULL OR b.div_code = :division)
           AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
           AND {{scope}})::int AS coaches_manned,
       o.hht_ids,
       o.first_sign_on,
       o.last_sign_off,
       :srcDate::date - 3 AS from_date,
       :srcDate::date AS to_date
  FROM (SELECT b.lobby_code AS lobby,
               b.tte_id,
               count(DISTINCT b.run_id)::int AS trains_worked,
               string_agg(DISTINCT b.train_no, ', ') AS trains,
               sum(b.beats)::int AS beats,
               (SELECT string_agg(DISTINCT d, ', ') FROM unnest(hht_array_cat(b.device_ids)) AS d) AS hht_ids,
               min(b.first_sign_on) AS first_sign_on,
               max(b.last_sign_off) AS last_sign_off
          FROM rollup_tte_duty b
         WHERE b.duty_date = :srcDate::date
           AND b.start_date BETWEEN :srcDate::date - 3 AND :srcDate::date
           AND (:zone::text IS NULL OR b.zone_code = :zone)
           AND (:division::text IS NULL OR b.div_code = :division)
           AND (:lobby::text IS NULL OR b.lobby_code = :lobby)
           AND {{scope}}
         GROUP BY b.lobby_code, b.tte_id
         ORDER BY b.lobby_code, b.tte_id) o
