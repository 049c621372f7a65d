import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Encoding = 'br' | 'gzip';

/** Answers smaller than this go out as they are: the headers would eat the saving. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Levels for answers made per request, chosen for CPU: at the 2,500 req/s target on 2 cores each request has well
 * under 1 ms of CPU. On a 40 KB report answer brotli 2 and gzip 1 cost about as much as JSON.stringify and still
 * shrink it 22x / 15x; brotli 4 or gzip 6 cost up to twice that, brotli 11 hundreds of times (docs/decisions.md).
 */
export const DYNAMIC_BROTLI_QUALITY = 2;
export const DYNAMIC_GZIP_LEVEL = 1;
/** Above this size the work goes to libuv's thread pool so the event loop keeps serving other requests. */
const SYNC_MAX_BYTES = 64 * 1024;

const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/|image\/svg\+xml)/i;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer with for an Accept-Encoding header: br before gzip, either refused by q=0.
 * Identity when neither is accepted.
 */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (enc: string): number => q.get(enc) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

function brotliOptions(size: number) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

export async function compressBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (body.length <= SYNC_MAX_BYTES) {
    return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body.length)) : gzipSync(body, { level: DYNAMIC_GZIP_LEVEL });
  }
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body.length)) : gzipAsync(body, { level: DYNAMIC_GZIP_LEVEL });
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(text)) return;
  reply.header('vary', text ? `${text}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * The encoding an answer of `size` bytes is sent in, or null for as it is: small answers and HEAD stay plain; from
 * there on the answer depends on Accept-Encoding (Vary), whichever way it goes.
 */
function negotiate(request: FastifyRequest, reply: FastifyReply, size: number): Encoding | null {
  if (size < COMPRESS_MIN_BYTES || request.method === 'HEAD') return null;
  addVary(reply);
  return pickEncoding(request.headers['accept-encoding']);
}

/**
 * Compresses answers built in memory (API JSON, the app page) per request, negotiated by Accept-Encoding.
 * Streams (static files, exports) are left alone: static files are precompressed at build time.
 */
export function registerCompression(app: FastifyInstance): void {
  // A callback hook, not an async one: most answers pass through untouched, and an async hook costs a promise and a
  // microtask on every one of them.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload);
    if (reply.getHeader('content-encoding') !== undefined) return done(null, payload);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const encoding = negotiate(request, reply, body.length);
    if (!encoding) return done(null, payload);
    compressBody(body, encoding).then((compressed) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, compressed);
    }, done);
  });
}

/** A body whose compressed forms are made once and kept (the report result cache): see sendEncoded. */
export interface EncodableBody {
  readonly json: Buffer;
  encode(encoding: Encoding): Promise<Buffer>;
}

/**
 * Sends a JSON body, compressed as the client asks (same rules as the hook below), with the compressed form taken
 * from the body itself: a cached answer is compressed once, not per request. The hook leaves it alone because
 * content-encoding is set.
 */
export async function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: EncodableBody): Promise<FastifyReply> {
  void reply.type('application/json; charset=utf-8');
  const encoding = negotiate(request, reply, body.json.length);
  if (!encoding) return reply.send(body.json);
  const compressed = await body.encode(encoding);
  return reply.header('content-encoding', encoding).send(compressed);
}
