import { PassThrough, pipeline, type Readable } from 'node:stream';

/** A stream's bytes passed on unchanged, counted (an export's size for the audit trail and metrics). */
export interface CountedStream extends PassThrough {
  readonly bytes: number;
}

/**
 * Pipes `source` through a counter; destroying the counter (a client gone) destroys the source, and an error of
 * the source ends the counter with it, as if the source were sent itself.
 */
export function countBytes(source: Readable): CountedStream {
  let bytes = 0;
  const counter = new PassThrough({
    transform(chunk: Buffer | string, _enc, done) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      done(null, chunk);
    },
  });
  Object.defineProperty(counter, 'bytes', { get: () => bytes });
  pipeline(source, counter, () => undefined);
  return counter as CountedStream;
}
