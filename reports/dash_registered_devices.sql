SELECT d.zone_code,
       d.div_code,
       count(*)::int AS total,
       (count(*) FILTER (WHERE d.status = 'IN_SERVICE'))::int AS in_service,
       (count(*) FILTER (WHERE d.status = 'UNDER_REPAIR'))::int AS under_repair,
       (count(*) FILTER (WHERE d.status = 'LOST'))::int AS lost,
       (count(*) FILTER (WHERE d.status = 'WITHDRAWN'))::int AS withdrawn
  FROM devices d
 WHERE {{scope}}
 GROUP BY d.zone_code, d.div_code
 ORDER BY d.zone_code, d.div_code
