import type { Queryable } from '../../src/server/db';
import type { CheckedReport } from '../../src/shared/definitions/validate';
import { resolveDefaults } from '../../src/shared/definitions/filter-widgets';

/**
 * A known-good filter for any report, from the seeded data: a train of the division that runs today, its trip
 * id, an EFT of the day, and so on, by the filter's field names (never by report). Optional fields with no
 * sample stay empty.
 */
export async function sampleFilter(
  db: Queryable,
  report: CheckedReport,
  today: string,
  divCode = 'DLI',
): Promise<Record<string, unknown>> {
  const props = (report.filterSchema.properties ?? {}) as Record<string, { enum?: unknown[]; type?: string }>;
  const required = new Set((report.filterSchema.required as string[] | undefined) ?? []);
  const values: Record<string, unknown> = resolveDefaults(report.definition.filter.defaults, today);
  const one = async (sql: string, params: unknown[] = []): Promise<Record<string, unknown> | undefined> =>
    (await db.query<Record<string, unknown>>(sql, params)).rows[0];

  const run = await one(
    `SELECT tr.run_id, tr.train_no, tr.start_date, t.src_station, t.dest_station
       FROM train_runs tr JOIN trains t ON t.train_no = tr.train_no
      WHERE tr.start_date = $1::date AND tr.div_code = $2
      ORDER BY (SELECT count(*) FROM efts e WHERE e.run_id = tr.run_id) DESC, tr.train_no LIMIT 1`,
    [today, divCode],
  );
  const beat = run ? await one('SELECT trip_id, sign_on_id, tte_id FROM beats WHERE run_id = $1 ORDER BY beat_no LIMIT 1', [run.run_id]) : undefined;
  const eft = run ? await one('SELECT eft_no, ist_date(issued_at)::text AS d FROM efts WHERE run_id = $1 ORDER BY eft_no LIMIT 1', [run.run_id]) : undefined;

  const known: Record<string, unknown> = {
    trainNo: run?.train_no,
    startDate: today,
    srcDate: today,
    id: beat?.trip_id,
    tripId: beat?.trip_id,
    signOnId: beat?.sign_on_id,
    eftNo: eft?.eft_no,
    origin: run?.src_station,
    destination: run?.dest_station,
    from: run?.src_station,
    to: run?.dest_station,
  };
  if (eft && 'eftNo' in props) values.srcDate = eft.d;
  for (const [name, schema] of Object.entries(props)) {
    if (values[name] !== undefined) continue;
    if (known[name] !== undefined && (required.has(name) || name === 'trainNo')) values[name] = known[name];
    else if (required.has(name) && schema.enum?.length) values[name] = schema.enum[0];
    else if (required.has(name) && known[name] !== undefined) values[name] = known[name];
  }
  return values;
}
