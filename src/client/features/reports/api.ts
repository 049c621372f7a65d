/**
 * Fetchers and hooks of the report page. Components get the fetchers from ReportApiContext, so tests
 * inject fakes through a provider instead of mocking modules.
 */
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { HTTPError, TimeoutError } from 'ky';
import { api, tokens, tokenSubject } from '../../lib/api';
import type { PublicReport, ReportSummary } from '../../../shared/report-definition';
import type { ConsistRequest, ConsistResponse } from '../../../shared/consist';
import {
  parseConsist,
  parseErrorBody,
  parseNearestDate,
  parsePublicReport,
  parseAge,
  parseRailwayCodes,
  parseReportList,
  parseReportResult,
  type FieldProblem,
  type NearestDate,
  type RailwayCode,
  type ReportPage,
} from './lib/parse';
import type { Filter } from './lib/filter-url';
import type { RJSFSchema } from '@rjsf/utils';
import { loadFilterValidator, type FilterValidator } from './lib/filter-validator';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 for network failures and timeouts. */
    readonly status: number,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RunRequest {
  endpoint: string;
  method: 'GET' | 'POST';
  filter: Filter;
  page?: number;
  rowsPerPage?: number;
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  rowsPath?: string;
  signal?: AbortSignal;
}

export interface DownloadProgress {
  transferredBytes: number;
  /** 0 when the server streams without a length. */
  totalBytes: number;
}

export interface ExportRequest {
  reportId: string;
  format: ExportFormat;
  tab?: string;
  columns: string[];
  filter: Filter;
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
}

export interface ReportApi {
  listReports(signal?: AbortSignal): Promise<ReportSummary[]>;
  getReport(id: string, signal?: AbortSignal): Promise<PublicReport>;
  runReport(req: RunRequest): Promise<ReportPage>;
  /** The nearest earlier date on which the same filter has rows for this user (the report's single date moved back). */
  nearestDate(req: RunRequest): Promise<NearestDate | null>;
  exportReport(req: ExportRequest): Promise<{ blob: Blob; fileName: string | null }>;
  railwayCodes(signal?: AbortSignal): Promise<RailwayCode[]>;
  coachConsist(req: ConsistRequest, signal?: AbortSignal): Promise<ConsistResponse>;
  /** The report's filter validator: Ajv's precompiled code for its filter schema. */
  filterValidator(report: PublicReport): Promise<FilterValidator>;
}

const NETWORK = 'The server could not be reached. Check the connection and try again.';
const TIMEOUT = 'The server took too long to answer. Try again, or narrow the filter.';

/** Turns ky's failures into ApiError with the server's message (aborts are passed on unchanged). */
async function asApiError(e: unknown): Promise<unknown> {
  if (e instanceof DOMException && e.name === 'AbortError') return e;
  if (e instanceof HTTPError) {
    const res = e.response;
    let body: unknown = null;
    try {
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } catch {
      body = null;
    }
    const fallback = res.status === 403 ? 'Session expired, Please login again' : `The server answered ${res.status} ${res.statusText}`.trim();
    const { message, fields } = parseErrorBody(body, fallback);
    return new ApiError(message, res.status, fields);
  }
  if (e instanceof TimeoutError) return new ApiError(TIMEOUT, 0);
  if (e instanceof TypeError) return new ApiError(NETWORK, 0);
  if (e instanceof Error && e.name === 'BoundaryError') return new ApiError(e.message, 0);
  return e;
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw await asApiError(e);
  }
}

const queryValue = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

function runParams(req: RunRequest): URLSearchParams {
  const q = new URLSearchParams();
  if (req.method === 'GET') {
    for (const [k, v] of Object.entries(req.filter)) {
      if (Array.isArray(v)) for (const item of v) q.append(k, queryValue(item));
      else if (v !== undefined && v !== null) q.set(k, queryValue(v));
    }
  }
  if (req.page) q.set('page', String(req.page));
  if (req.rowsPerPage) q.set('rowsPerPage', String(req.rowsPerPage));
  if (req.sortBy) {
    q.set('sortBy', req.sortBy);
    q.set('sortDir', req.sortDir ?? 'asc');
  }
  return q;
}

/** 'attachment; filename="a.csv"; filename*=UTF-8''a.csv' -> 'a.csv' */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || null;
}

/** The real fetchers: the shared api client (bearer token, XSRF header, one refresh for expired tokens). */
export const httpReportApi: ReportApi = {
  filterValidator: (report) =>
    call(async () => {
      if (!report.filterValidator) throw new ApiError('The server gave no filter validator for this report', 0);
      // The definition's schema as received: its hash is what the module was compiled under.
      return loadFilterValidator(report.filterValidator, report.filter.schema as RJSFSchema);
    }),
  listReports: (signal) => call(async () => parseReportList(await api.get('/api/meta/reports', { signal }).json())),
  getReport: (id, signal) => call(async () => parsePublicReport(await api.get(`/api/meta/reports/${encodeURIComponent(id)}`, { signal }).json())),
  runReport: (req) =>
    call(async () => {
      const url = `/api/${encodeURIComponent(req.endpoint)}`;
      const searchParams = runParams(req);
      const res =
        req.method === 'GET'
          ? await api.get(url, { searchParams, signal: req.signal, timeout: 120_000 })
          : await api.post(url, { searchParams, json: req.filter, signal: req.signal, timeout: 120_000 });
      const page = parseReportResult(await res.json(), req.rowsPath);
      const age = parseAge(res.headers.get('age'));
      if (age !== undefined) page.cacheAgeSeconds = age;
      return page;
    }),
  nearestDate: (req) =>
    call(async () => {
      const url = `/api/${encodeURIComponent(req.endpoint)}`;
      const searchParams = runParams(req);
      searchParams.set('nearest', 'earlier');
      const body: unknown =
        req.method === 'GET'
          ? await api.get(url, { searchParams, signal: req.signal }).json()
          : await api.post(url, { searchParams, json: req.filter, signal: req.signal }).json();
      return parseNearestDate(body);
    }),
  exportReport: (req) =>
    call(async () => {
      const searchParams = new URLSearchParams({ format: req.format });
      if (req.tab) searchParams.set('tab', req.tab);
      if (req.columns.length > 0) searchParams.set('columns', req.columns.join(','));
      if (req.sortBy) {
        searchParams.set('sortBy', req.sortBy);
        searchParams.set('sortDir', req.sortDir ?? 'asc');
      }
      const res = await api.post(`/api/export/${encodeURIComponent(req.reportId)}`, {
        searchParams,
        json: req.filter,
        signal: req.signal,
        timeout: false,
        onDownloadProgress: (p) => req.onProgress?.({ transferredBytes: p.transferredBytes, totalBytes: p.totalBytes }),
      });
      return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) };
    }),
  railwayCodes: (signal) => call(async () => parseRailwayCodes(await api.get('/api/dropDownRailwayCode', { signal }).json())),
  coachConsist: (req, signal) => call(async () => parseConsist(await api.post('/api/coachConsist', { json: req, signal }).json())),
};

export const ReportApiContext = createContext<ReportApi>(httpReportApi);
export const useReportApi = (): ReportApi => useContext(ReportApiContext);

/** The signed-in user's train list (wired to the session at the app level). */
export const TrainListContext = createContext<readonly string[]>([]);
export const useTrainList = (): readonly string[] => useContext(TrainListContext);

const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : 'Something went wrong.');

export type DefinitionState =
  | { status: 'loading' }
  | { status: 'ok'; report: PublicReport }
  | { status: 'notFound' }
  | { status: 'unavailable'; reason: string }
  | { status: 'error'; message: string };

/**
 * The definition of one report; 404 -> notFound, 503 -> unavailable with the server's reason. `language` is the
 * interface language: the server words the definition in it (Accept-Language), so a change loads it again; the
 * definition on screen stays until the new one arrives.
 */
export function useReportDefinition(id: string, language = 'en'): { state: DefinitionState; retry: () => void } {
  const reportApi = useReportApi();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ id: string; attempt: number; value: DefinitionState } | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    reportApi.getReport(id, ctrl.signal).then(
      (report) => setState({ id, attempt, value: { status: 'ok', report } }),
      (e: unknown) => {
        if (isAbort(e) || ctrl.signal.aborted) return;
        const status = e instanceof ApiError ? e.status : 0;
        const value: DefinitionState =
          status === 404 ? { status: 'notFound' } : status === 503 ? { status: 'unavailable', reason: messageOf(e) } : { status: 'error', message: messageOf(e) };
        setState({ id, attempt, value });
      },
    );
    return () => ctrl.abort();
  }, [reportApi, id, attempt, language]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const current = state && state.id === id && state.attempt === attempt ? state.value : { status: 'loading' as const };
  return { state: current, retry };
}

/**
 * Railway codes are scoped to the signed-in user (the server answers with their zone/division), so the cache
 * belongs to the user of the access token: after a sign-out and another user's sign-in in the same tab, the lists
 * are loaded again instead of showing the previous user's.
 */
const codesCache = new WeakMap<ReportApi, { owner: string | null; codes: Promise<RailwayCode[]> }>();

/** Railway codes for the cascade, loaded once per session when a form needs them. */
/** The report's filter validator, loaded once per definition (a changed definition is a new object). */
export function useFilterValidator(report: PublicReport): { status: 'loading' } | { status: 'ok'; validator: FilterValidator } | { status: 'error'; message: string } {
  const reportApi = useReportApi();
  const [result, setResult] = useState<{ report: PublicReport; validator: FilterValidator } | { report: PublicReport; message: string } | null>(null);
  useEffect(() => {
    let live = true;
    reportApi.filterValidator(report).then(
      (validator) => live && setResult({ report, validator }),
      (e: unknown) => live && setResult({ report, message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [reportApi, report]);
  if (!result || result.report !== report) return { status: 'loading' };
  return 'validator' in result ? { status: 'ok', validator: result.validator } : { status: 'error', message: result.message };
}

export function useRailwayCodes(enabled: boolean): { codes: RailwayCode[]; status: 'idle' | 'loading' | 'ok' | 'error' } {
  const reportApi = useReportApi();
  const [result, setResult] = useState<{ codes: RailwayCode[]; status: 'ok' | 'error' } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const owner = tokenSubject(tokens.access());
    const cached = codesCache.get(reportApi);
    let p = cached && cached.owner === owner ? cached.codes : undefined;
    if (!p) {
      const codes = reportApi.railwayCodes();
      p = codes;
      codesCache.set(reportApi, { owner, codes });
      codes.catch(() => {
        if (codesCache.get(reportApi)?.codes === codes) codesCache.delete(reportApi);
      });
    }
    p.then(
      (codes) => live && setResult({ codes, status: 'ok' }),
      () => live && setResult({ codes: [], status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [reportApi, enabled]);
  if (!enabled) return { codes: [], status: 'idle' };
  return result ?? { codes: [], status: 'loading' };
}

export interface QueryState {
  loading: boolean;
  data: ReportPage | null;
  error: ApiError | null;
  /** The request the data belongs to. */
  dataKey: string | null;
}

/**
 * Runs a report call whenever `key` changes (null = nothing to run). An older answer never overwrites a
 * newer one; leaving the page aborts the call. Rows stay on screen while the next page or sort loads
 * when `keepKey` (filter + tab) is unchanged.
 */
export function useReportQuery(request: RunRequest | null, key: string | null, keepKey: string | null): QueryState & { reload: () => void } {
  const reportApi = useReportApi();
  const [state, setState] = useState<QueryState & { keep: string | null }>({ loading: false, data: null, error: null, dataKey: null, keep: null });
  const [nonce, setNonce] = useState(0);
  const requestRef = useRef(request);
  // The key stands for the request; the ref hands the latest request object to the effect below.
  useLayoutEffect(() => {
    requestRef.current = request;
  });
  useEffect(() => {
    const req = requestRef.current;
    if (key === null || !req) {
      setState({ loading: false, data: null, error: null, dataKey: null, keep: null });
      return;
    }
    const ctrl = new AbortController();
    setState((s) => ({ loading: true, error: null, data: s.keep === keepKey ? s.data : null, dataKey: s.keep === keepKey ? s.dataKey : null, keep: s.keep === keepKey ? s.keep : null }));
    reportApi.runReport({ ...req, signal: ctrl.signal }).then(
      (data) => {
        if (!ctrl.signal.aborted) setState({ loading: false, data, error: null, dataKey: key, keep: keepKey });
      },
      (e: unknown) => {
        if (ctrl.signal.aborted || isAbort(e)) return;
        const error = e instanceof ApiError ? e : new ApiError(messageOf(e), 0);
        setState((s) => ({ ...s, loading: false, error }));
      },
    );
    return () => ctrl.abort();
  }, [reportApi, key, keepKey, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const { keep: _keep, ...rest } = state;
  return { ...rest, reload };
}
