import PDFDocument from 'pdfkit';
import type { Config } from '../config';
import type { Db } from '../db';
import { istDate } from '../clock';
import type { ReportRegistry } from '../reports/registry';
import type { UserScope } from '../reports/scope';
import { parseFilter } from '../reports/filter';
import { aggregateView, runView } from '../reports/executor';
import { registerPdfFonts, pdfWords } from '../reports/export/pdf-language';
import type { DashboardCard, DashboardConfig } from '../../shared/dashboard';
import { resolveDefaults } from '../../shared/definitions/filter-widgets';
import { localizeDashboard } from '../../shared/definitions/localize';
import type { Lang } from '../../shared/definitions/hindi';
import type { BuiltFile } from './attachment';

export interface DashboardPdfInput {
  dashboard: DashboardConfig;
  registry: ReportRegistry;
  scope: UserScope;
  lang: Lang;
  userLabel: string;
  now: Date;
}

/** One card's figures: a stat's number, a chart's rows (label and each series), or why it has none. */
type CardFigures = { kind: 'stat'; value: number } | { kind: 'chart'; rows: { label: string; values: number[] }[] } | { kind: 'none'; reason: string };

const WORDS: Record<Lang, { title: string; unavailable: string }> = {
  en: { title: 'Dashboard', unavailable: 'Not available for your profile' },
  hi: { title: 'डैशबोर्ड', unavailable: 'आपकी प्रोफ़ाइल के लिए उपलब्ध नहीं' },
};

const numberText = (v: number, format: DashboardCard['format']): string => {
  const text = v.toLocaleString('en-IN', { maximumFractionDigits: format === 'currency' ? 2 : 1 });
  return format === 'currency' ? `₹ ${text}` : format === 'percent' ? `${text}%` : text;
};

/** A card's figures as the dashboard computes them for this user's scope (the same report views and aggregates). */
async function cardFigures(db: Db, config: Config, card: DashboardCard, input: DashboardPdfInput): Promise<CardFigures> {
  const found = input.registry.endpoint(card.endpoint);
  if (!found) return { kind: 'none', reason: WORDS[input.lang].unavailable };
  const today = istDate(input.now);
  try {
    const values = parseFilter(found.report, resolveDefaults(card.params, today), today, input.lang);
    if (card.kind === 'stat') {
      const sumOf = card.aggregate === 'sum' ? card.valueField : undefined;
      if (card.aggregate === 'count' || sumOf) {
        const agg = await aggregateView(db, found.view, values, input.scope, { sumOf }, config.reportTimeoutMs);
        return { kind: 'stat', value: sumOf ? (agg.sum ?? 0) : agg.count };
      }
      const r = await runView(db, found.view, values, input.scope, { timeoutMs: config.reportTimeoutMs });
      return { kind: 'stat', value: Number(r.rows[0]?.[card.valueField ?? ''] ?? 0) };
    }
    const chart = card.chart;
    if (!chart) return { kind: 'none', reason: WORDS[input.lang].unavailable };
    const r = await runView(db, found.view, values, input.scope, { timeoutMs: config.reportTimeoutMs });
    return {
      kind: 'chart',
      rows: r.rows.map((row) => ({ label: String(row[chart.labelField] ?? ''), values: chart.series.map((s) => Number(row[s.field] ?? 0)) })),
    };
  } catch {
    // A card the user's level may not read (deny by default) is shown as such, as on the dashboard page.
    return { kind: 'none', reason: WORDS[input.lang].unavailable };
  }
}

/** The dashboard as a PDF: each card's title, its number or its chart's figures as a table, in the user's language. */
export async function buildDashboardPdf(db: Db, config: Config, input: DashboardPdfInput): Promise<BuiltFile> {
  const cards = localizeDashboard(input.dashboard.cards, input.dashboard.hi, input.lang);
  const figures: CardFigures[] = [];
  for (const card of cards) figures.push(await cardFigures(db, config, card, input));

  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: WORDS[input.lang].title, Author: input.userLabel } });
  registerPdfFonts(doc, input.lang, { regular: 'body', bold: 'body-bold' });
  const words = pdfWords(input.lang);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font('body-bold').fontSize(16).text(WORDS[input.lang].title);
  doc.font('body').fontSize(9).text(words.generated(input.userLabel, input.now, undefined));
  doc.moveDown();
  cards.forEach((card, i) => {
    const f = figures[i];
    if (!f) return;
    if (doc.y > doc.page.height - 120) doc.addPage();
    doc.font('body-bold').fontSize(12).text(card.title);
    if (f.kind === 'stat') {
      doc.font('body-bold').fontSize(18).text(numberText(f.value, card.format));
      if (card.caption) doc.font('body').fontSize(9).text(card.caption);
    } else if (f.kind === 'chart') {
      const series = card.chart?.series ?? [];
      doc.font('body').fontSize(9);
      if (f.rows.length === 0) doc.text(words.noRecords);
      doc.text(['', ...series.map((s) => s.label)].join('    '));
      for (const row of f.rows) doc.text([row.label, ...row.values.map((v) => numberText(v, 'number'))].join('    '));
    } else {
      doc.font('body').fontSize(9).text(f.reason);
    }
    doc.moveDown();
  });
  doc.end();
  await ended;
  const content = Buffer.concat(chunks);
  const overLimit = content.length > config.mail.maxBytes;
  return {
    fileName: `dashboard-${istDate(input.now)}.pdf`,
    contentType: 'application/pdf',
    filters: [],
    values: {},
    rows: cards.length,
    content: overLimit ? null : content,
    bytes: content.length,
  };
}
