import type { Readable } from 'node:stream';
import type { Config } from '../config';
import type { Db } from '../db';
import type { CheckedReport } from '../../shared/definitions/validate';
import { localizeReport } from '../../shared/definitions/localize';
import type { Lang } from '../../shared/definitions/hindi';
import { planExport, writeExport, type ExportPlan } from '../reports/export/plan';
import type { UserScope } from '../reports/scope';
import { jsonObject, type SubscriptionRow } from './store';
import { resolveFilters } from './schedule';

/** The export plan of a report subscription for a send at `now`: the same checks and query as the user's own export. */
export function subscriptionPlan(report: CheckedReport, sub: SubscriptionRow, scope: UserScope, userLabel: string, now: Date): ExportPlan {
  return planExport(report, {
    format: sub.format,
    tab: sub.tab ?? undefined,
    columns: sub.columns ?? undefined,
    sortBy: sub.sort_by ?? undefined,
    sortDir: sub.sort_dir ?? undefined,
    body: resolveFilters(jsonObject(sub.filters), now),
    lang: sub.lang,
    scope,
    userLabel,
    now,
  });
}

/** A file ready to mail (a report's export or the dashboard's PDF). */
export interface BuiltFile {
  fileName: string;
  contentType: string;
  /** The filters as the file's heading prints them. */
  filters: { label: string; value: string }[];
  /** The filter values the file was made with (relative dates resolved). */
  values: Record<string, unknown>;
  rows: number;
  /** The file, or null when it grew past the limit (the mail then carries a link). */
  content: Buffer | null;
  /** Bytes of the file, or of the part read before it passed the limit. */
  bytes: number;
}

/** Reads a stream into memory up to `max` bytes; past it the stream is destroyed and null returned. */
async function readUpTo(stream: Readable, max: number): Promise<{ content: Buffer | null; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    bytes += b.length;
    if (bytes > max) {
      stream.destroy();
      return { content: null, bytes };
    }
    chunks.push(b);
  }
  return { content: Buffer.concat(chunks), bytes };
}

/** Writes the subscription's file as the export route would, held in memory up to the mail size limit. */
export async function buildReportFile(db: Db, config: Config, plan: ExportPlan): Promise<BuiltFile> {
  const file = await writeExport(db, config, plan);
  try {
    const { content, bytes } = await readUpTo(file.stream, config.mail.maxBytes);
    return { fileName: plan.fileName, contentType: plan.contentType, filters: plan.meta.filters, values: plan.values, rows: file.total, content, bytes };
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** The report's title in a language (its tab's label after a dash, as the export's heading). */
export function reportTitle(report: CheckedReport, tab: string | null, lang: Lang): string {
  const def = localizeReport(report.definition, report.filterSchema, report.fieldHindi, lang).definition;
  const label = tab ? def.tabs?.find((t) => t.id === tab)?.label : undefined;
  return label ? `${def.title} - ${label}` : def.title;
}

/** The report page's address with the send's filters, tab and order: what a file too large to mail is replaced by. */
export function reportLink(publicUrl: string, reportId: string, values: Record<string, unknown>, sub: Pick<SubscriptionRow, 'tab' | 'sort_by' | 'sort_dir'>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.set(k, String(v));
  }
  params.set('_run', '1');
  if (sub.tab) params.set('_tab', sub.tab);
  if (sub.sort_by) {
    params.set('_sort', sub.sort_by);
    params.set('_dir', sub.sort_dir ?? 'asc');
  }
  return `${publicUrl}/layout/uikit/${encodeURIComponent(reportId)}?${params.toString()}`;
}
