import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { sampleFilter } from '../support/sample-filters';
import { pdfText } from '../support/pdf-text';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { manualClock } from '../../src/server/clock';
import type { PublicReport, ReportSummary } from '../../src/shared/report-definition';
import type { MenuDocument } from '../../src/shared/menu';
import type { DashboardConfig } from '../../src/shared/dashboard';
import { validatorFromModule } from '../../src/client/features/reports/lib/filter-validator';

/** The browser's validator of a served definition: its module fetched from the server, imported, given to RJSF. */
async function servedValidator(app: FastifyInstance, r: PublicReport) {
  const res = await app.inject({ method: 'GET', url: r.filterValidator ?? '' });
  expect(res.statusCode).toBe(200);
  const dir = join(process.cwd(), '.tmp', 'filter-validators');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `served-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, res.body);
  try {
    return validatorFromModule(await import(/* @vite-ignore */ file), r.filter.schema);
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * A root with the shipped schemas, menu and dashboard, two shipped reports (with their full Hindi) and two fixtures:
 * `hindi_partial` has Hindi for some texts only (the rest must fall back to English), `hindi_broken` has a `hi`
 * key naming a column it does not have (refused, naming the pointer).
 */
function fixtureRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'hht-hindi-'));
  cpSync('schemas', join(root, 'schemas'), { recursive: true });
  cpSync('menu.json', join(root, 'menu.json'));
  cpSync('dashboard.json', join(root, 'dashboard.json'));
  mkdirSync(join(root, 'docs'));
  cpSync('docs/release-notes.json', join(root, 'docs/release-notes.json'));
  mkdirSync(join(root, 'reports'));
  for (const f of ['vacant_berths.json', 'vacant_berths.sql', 'All_Passenger_Report.json', 'All_Passenger_Report.sql']) {
    cpSync(join('reports', f), join(root, 'reports', f));
  }
  const base = {
    endpoint: 'getHindiPartial',
    description: 'Trains of your zone.',
    filter: {
      schema: {
        type: 'object',
        properties: {
          trainNo: { $ref: 'fields/train-no.json' },
          kind: { title: 'Kind', type: 'string', enum: ['M', 'E'] },
          note: { title: 'Note', type: 'string' },
        },
      },
      uiSchema: { kind: { 'ui:enumNames': ['Mail', 'Express'] } },
    },
    columns: [
      { field: 'train_no', headerName: 'Train No' },
      { field: 'train_name', headerName: 'Train Name' },
      { field: 'zone_code', headerName: 'Zone', labels: { NR: 'Northern', WR: 'Western' } },
    ],
    export: { formats: ['csv', 'xlsx', 'pdf'], fileName: 'hindi-partial' },
    source: { sql: 'SELECT train_no, name AS train_name, zone_code FROM trains WHERE {{scope}} AND (:trainNo::text IS NULL OR train_no = :trainNo) AND (:kind::text IS NULL OR TRUE) AND (:note::text IS NULL OR TRUE)', scope: { zone: 'zone_code' } },
  };
  writeFileSync(join(root, 'reports', 'hindi_partial.json'), JSON.stringify({
    id: 'hindi_partial', title: 'Partly Translated', ...base,
    hi: {
      title: 'आंशिक अनुवाद',
      filter: { kind: { title: 'प्रकार', enumNames: ['मेल', 'एक्सप्रेस'] } },
      columns: { train_no: { headerName: 'गाड़ी सं.' }, zone_code: { labels: { NR: 'उत्तर' } } },
    },
  }));
  writeFileSync(join(root, 'reports', 'hindi_broken.json'), JSON.stringify({
    id: 'hindi_broken', title: 'Broken Hindi', ...base, endpoint: 'getHindiBroken',
    hi: { columns: { train_nme: { headerName: 'गाड़ी का नाम' } } },
  }));
  return root;
}

describe.each(TEST_DRIVERS)('Hindi from the definitions by Accept-Language on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let su: SignedIn;
  let root: string;
  const hi = (): Record<string, string> => ({ ...su.headers(), 'accept-language': 'hi' });
  const en = (): Record<string, string> => ({ ...su.headers(), 'accept-language': 'en' });

  beforeAll(async () => {
    root = fixtureRoot();
    t = await cloneSeededTestDb(driver);
    await insertDemoUsers(t.db);
    app = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)), config: { rootDir: root } });
    su = await loginAs(app, 'HHTSU');
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const meta = async (id: string, headers: Record<string, string>): Promise<PublicReport> => {
    const res = await app.inject({ method: 'GET', url: `/api/meta/reports/${id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers.vary)).toMatch(/accept-language/i);
    return res.json<PublicReport>();
  };

  it('serves a report in Hindi: title, description, filter titles (shared fields too), drop-down names, columns and code labels', async () => {
    const r = await meta('vacant_berths', hi());
    expect(r.title).toBe('रिक्त बर्थ');
    expect(r.description).toMatch(/^गाड़ी फेरे पर रिक्त रही बर्थ/);
    const props = r.filter.schema.properties as Record<string, { title?: string; description?: string; pattern?: string }>;
    expect(props.trainNo).toMatchObject({ title: 'गाड़ी संख्या', pattern: '^[0-9]{5}$' }); // from schemas/fields/train-no.json
    expect(props.startDate?.title).toBe('यात्रा तिथि');
    expect(props.cls?.title).toBe('श्रेणी');
    expect((r.filter.uiSchema?.reason as Record<string, unknown>)['ui:enumNames']).toEqual(['अनुपस्थित', 'रद्द', 'बिकी नहीं', 'उतर गए']);
    expect(r.columns.map((c) => c.headerName).slice(0, 3)).toEqual(['कोच', 'बर्थ', 'बर्थ का प्रकार']);
    expect(r.columns.find((c) => c.field === 'reason')?.labels).toEqual({ NT: 'अनुपस्थित', CANCELLED: 'रद्द', UNSOLD: 'बिकी नहीं', GOT_DOWN: 'उतर गए' });
    expect(r).not.toHaveProperty('hi');
    // Tabs in Hindi too.
    const all = await meta('All_Passenger_Report', hi());
    expect(all.tabs?.map((tab) => tab.label)).toEqual(['उपस्थित', 'अनुपस्थित']);
  });

  it('serves each language the compiled filter validator of the schema it shows (RJSF finds it by the schema hash)', async () => {
    const [h, e] = [await meta('vacant_berths', hi()), await meta('vacant_berths', en())];
    expect(h.filterValidator).not.toBe(e.filterValidator);
    for (const r of [h, e]) {
      const v = await servedValidator(app, r);
      const bad = v.validateFormData({ trainNo: '12A', startDate: t.today }, r.filter.schema);
      expect(bad.errors.map((x) => x.property)).toEqual(['.trainNo']);
      expect(v.validateFormData({ trainNo: '12951', startDate: t.today }, r.filter.schema).errors).toEqual([]);
    }
  });

  it('serves English for en, for other languages and without the header, and never the hi block', async () => {
    for (const headers of [en(), { ...su.headers(), 'accept-language': 'fr-FR, de;q=0.8' }, su.headers()]) {
      const r = await meta('vacant_berths', headers);
      expect(r.title).toBe('Vacant Berths');
      expect((r.filter.schema.properties as Record<string, { title?: string }>).trainNo?.title).toBe('Train No');
      expect(r.columns[0]?.headerName).toBe('Coach');
      expect(r).not.toHaveProperty('hi');
    }
    // q-values: English preferred over Hindi.
    expect((await meta('vacant_berths', { ...su.headers(), 'accept-language': 'hi;q=0.4, en;q=0.9' })).title).toBe('Vacant Berths');
    expect((await meta('vacant_berths', { ...su.headers(), 'accept-language': 'hi-IN, en;q=0.5' })).title).toBe('रिक्त बर्थ');
  });

  it('falls back to English for each text a definition gives no Hindi for', async () => {
    const r = await meta('hindi_partial', hi());
    expect(r.title).toBe('आंशिक अनुवाद');
    expect(r.description).toBe('Trains of your zone.');
    const props = r.filter.schema.properties as Record<string, { title?: string }>;
    expect(props.trainNo?.title).toBe('गाड़ी संख्या');
    expect(props.kind?.title).toBe('प्रकार');
    expect(props.note?.title).toBe('Note');
    expect((r.filter.uiSchema?.kind as Record<string, unknown>)['ui:enumNames']).toEqual(['मेल', 'एक्सप्रेस']);
    expect(r.columns.map((c) => c.headerName)).toEqual(['गाड़ी सं.', 'Train Name', 'Zone']);
    expect(r.columns[2]?.labels).toEqual({ NR: 'उत्तर', WR: 'Western' });
  });

  it('lists reports with Hindi titles, and refuses a definition whose hi block names a column it lacks, naming the pointer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/meta/reports', headers: hi() });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ reports: ReportSummary[] }>().reports;
    expect(list.find((r) => r.id === 'vacant_berths')?.title).toBe('रिक्त बर्थ');
    expect(list.find((r) => r.id === 'hindi_partial')?.title).toBe('आंशिक अनुवाद');
    const broken = list.find((r) => r.id === 'hindi_broken');
    expect(broken?.status).toBe('unavailable');
    expect(broken?.reason).toContain('reports/hindi_broken.json#/hi/columns/train_nme: names no column');
  });

  it('localizes the menu with an ETag per language and Vary: Accept-Language', async () => {
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/meta/menu', headers });
    const [h, e] = [await get(hi()), await get(en())];
    expect(h.statusCode).toBe(200);
    expect(String(h.headers.vary)).toMatch(/accept-language/i);
    const labels = (m: MenuDocument) => m.entries.map((x) => x.label);
    expect(labels(h.json<MenuDocument>())).toContain('गाड़ी जाँच जानकारी');
    expect(labels(e.json<MenuDocument>())).toContain('TRAIN CHECKING INFO');
    const hiTag = String(h.headers.etag);
    expect(hiTag).not.toBe(String(e.headers.etag));
    // A Hindi tag does not answer an English request with 304, and does answer a Hindi one.
    expect((await get({ ...en(), 'if-none-match': hiTag })).statusCode).toBe(200);
    expect((await get({ ...hi(), 'if-none-match': hiTag })).statusCode).toBe(304);
  });

  it('words filter errors (400) in the language of the request, field titles included', async () => {
    const call = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/getVacantBerths', headers, payload });
    const h = await call(hi(), { startDate: t.today });
    expect(h.statusCode).toBe(400);
    expect(h.body).toContain('गाड़ी संख्या आवश्यक है');
    expect(h.body).toContain('"field":"trainNo"');
    const e = await call(en(), { startDate: t.today });
    expect(e.statusCode).toBe(400);
    expect(e.body).toContain('Train No is required');
    expect((await call(hi(), { trainNo: '12A', startDate: t.today })).body).toContain('गाड़ी संख्या मान्य नहीं है (5 अंकों की गाड़ी संख्या; आगे-पीछे के रिक्त स्थान हटा दिए जाते हैं)');
  });

  it('localizes the dashboard cards', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/meta/dashboard', headers: hi() });
    expect(res.statusCode).toBe(200);
    const cards = res.json<DashboardConfig>().cards;
    expect(cards.find((c) => c.id === 'passengers')).toMatchObject({ title: 'आज के यात्री', caption: 'आज आरंभ होने वाली गाड़ियों में' });
    expect(cards.find((c) => c.id === 'passengers-7-days')?.chart?.series.map((s) => s.label)).toEqual(['यात्री', 'उपस्थित']);
    expect(res.json<DashboardConfig>()).not.toHaveProperty('hi');
  });

  describe('exports in the language of the request', () => {
    const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
    const report = (id: string) => {
      const r = checked.reports.find((x) => x.definition.id === id);
      if (!r) throw new Error(`no report ${id}`);
      return r;
    };
    const exportOf = async (id: string, format: string, headers: Record<string, string>, tab?: string) => {
      const filter = await sampleFilter(t.db, report(id), t.today);
      const res = await app.inject({ method: 'POST', url: `/api/export/${id}?format=${format}${tab ? `&tab=${tab}` : ''}`, headers, payload: filter });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[A-Za-z0-9_.-]+"$/); // ASCII file names
      return res;
    };

    it('CSV: Hindi headers and code labels', async () => {
      const res = await exportOf('vacant_berths', 'csv', hi());
      const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('कोच,बर्थ,बर्थ का प्रकार,श्रेणी,रिक्त (से),रिक्त (तक),कारण,PRS को जारी,जारी करने का समय,जारी करने वाले,PRS द्वारा फिर से बुक');
      const reasons = new Set(lines.slice(1).filter(Boolean).map((l) => l.split(',')[6]));
      expect(reasons.size).toBeGreaterThan(0);
      for (const r of reasons) expect(['अनुपस्थित', 'रद्द', 'बिकी नहीं', 'उतर गए']).toContain(r);
      const english = await exportOf('vacant_berths', 'csv', en());
      expect(english.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^Coach,Berth,Berth Type,/);
    });

    it('xlsx: Hindi headers of a tab, Indian digit grouping in number formats', async () => {
      const res = await exportOf('All_Passenger_Report', 'xlsx', hi(), 'not-turned-up');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const header = (ws.getRow(1).values as unknown[]).filter((v) => typeof v === 'string');
      expect(header.slice(0, 4)).toEqual(['PNR', 'यात्री सं.', 'नाम', 'आयु']);
      expect(ws.name).toBe('सभी यात्री रिपोर्ट - अनुपस्थित'.slice(0, 31));
      // Lakh and crore groups by value sections (12,34,567), whatever the reader's Excel locale.
      const ageFmt = ws.getRow(2).getCell(4).numFmt;
      expect(ageFmt).toMatch(/^\[>=10000000\]##\\?,##\\?,##\\?,##0\.##;\[>=100000\]##\\?,##\\?,##0\.##;##,##0\.##$/);
    });

    it('PDF: Hindi title, filter line, headers and page numbers in an embedded Devanagari font, text extractable in reading order', async () => {
      const res = await exportOf('All_Passenger_Report', 'pdf', hi());
      const pdf = res.rawPayload;
      expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+NotoSansDevanagari/);
      // pdf.js guesses word breaks from glyph positions and puts spaces inside some Devanagari words (it does so
      // for any pdfkit Devanagari); the characters themselves must come out in reading order.
      const text = (await pdfText(pdf)).replace(/\s+/g, '');
      expect(text).toContain('सभीयात्रीरिपोर्ट'); // रि (i-matra drawn before र) and र्ट (reph drawn after ट)
      expect(text).toContain('फ़िल्टर:यात्रातिथि:');
      expect(text).toContain('गाड़ीसंख्या:');
      expect(text).toContain('यात्रातिथि:' + t.today.split('-').reverse().join('/'));
      expect(text).toContain('बुकिंगस्थिति');
      expect(text).toMatch(/पृष्ठ1\/\d+/);
      const english = await pdfText((await exportOf('All_Passenger_Report', 'pdf', en())).rawPayload);
      expect(english).toContain('All Passenger Report');
      expect(english).toMatch(/Page 1 of \d+/);
    });
  });
});
