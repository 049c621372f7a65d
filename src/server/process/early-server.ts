import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Config } from '../config';
import { serverLimitOptions } from '../http/limits';
import type { SeedProgress } from '../demo';

/**
 * The port answers from the first seconds of a start: while the database is migrated and the demo data prepared
 * (a minute or two on a fresh folder), every page says what is happening and how far, and /api/health says
 * "seeding". The same listening socket is then handed to the app (Fastify's serverFactory), so no request between
 * the two is refused.
 */
export type StartupPhase = 'migrating' | 'seeding' | 'starting';

export interface StartupState {
  phase: StartupPhase;
  /** The day being prepared (1-based) and the days of the window, while seeding. */
  day?: number;
  days?: number;
  /** The days are in; the terminals' records are being released and the statistics gathered. */
  records?: boolean;
}

/** What /api/health answers until the app takes over (503: a load balancer sends nobody here yet). */
export interface StartupHealthBody {
  status: 'seeding' | 'starting';
  message: string;
  day?: number;
  days?: number;
}

/** The sentence every page shows, e.g. "Preparing the demo data: day 12 of 32". */
export function startupMessage(s: StartupState): string {
  if (s.phase === 'migrating') return 'Preparing the database';
  if (s.phase === 'starting') return 'Starting the portal';
  if (s.records) return 'Preparing the demo data: finishing';
  if (s.day !== undefined && s.days !== undefined) return `Preparing the demo data: day ${s.day} of ${s.days}`;
  return 'Preparing the demo data';
}

const escapeHtml = (t: string): string => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page shown for every path but /api: reloads itself every 2 s until the portal answers instead. */
export function startupPage(s: StartupState): string {
  const text = escapeHtml(startupMessage(s));
  const pct = s.phase === 'seeding' && s.day !== undefined && s.days ? Math.round((100 * (s.records ? s.days : s.day - 1)) / s.days) : undefined;
  const bar = pct === undefined ? '' : `<progress max="100" value="${pct}" aria-label="${text}">${pct} %</progress>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="2"><title>IR-HHT Portal: starting</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f6f9;color:#1f2933}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.4rem}p{font-size:1.1rem}progress{width:100%;height:1rem}</style>
</head><body><main><h1>IR-HHT Portal</h1><p role="status">${text}</p>${bar}
<p><small>This page reloads by itself; the portal opens here when it is ready.</small></p></main></body></html>`;
}

function answer(s: StartupState, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const message = startupMessage(s);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('retry-after', '2');
  if (path === '/api/health') {
    const body: StartupHealthBody = {
      status: s.phase === 'starting' ? 'starting' : 'seeding', message,
      ...(s.day !== undefined && s.days !== undefined ? { day: s.day, days: s.days } : {}),
    };
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  } else if (path.startsWith('/api/')) {
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'Service Unavailable', message }));
  } else {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : startupPage(s));
  }
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface EarlyServer {
  /** The listening server; given to the app as its own (serverFactory). */
  server: Server;
  state: StartupState;
  /** Seed progress, as fillWindow reports it. */
  onSeedProgress(p: SeedProgress): void;
  /** From now on requests go to the app. */
  handOver(handler: RequestHandler): void;
  close(): Promise<void>;
}

/** Listens on the configured port at once and answers with the startup state; throws when it cannot listen. */
export async function listenEarly(config: Config): Promise<EarlyServer> {
  const limits = serverLimitOptions(config.limits);
  const state: StartupState = { phase: 'migrating' };
  let handler: RequestHandler = (req, res) => answer(state, req, res);
  const server = createServer(limits.http, (req, res) => handler(req, res));
  // The limits Fastify sets on a server it makes itself (it does not on one given by serverFactory).
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.setTimeout(limits.connectionTimeout);
  if (limits.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.maxConnections = config.limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    state,
    onSeedProgress: (p) => {
      state.phase = 'seeding';
      state.day = p.day;
      state.days = p.days;
      state.records = p.step === 'records';
    },
    handOver: (h) => {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
