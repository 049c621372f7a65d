import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The unsubscribe link's token: the subscription id and an HMAC of it under a key derived from the server's signing
 * secret, so the link works without signing in and cannot be made for another subscription. It does not expire: a
 * mail read months later still unsubscribes (deleting the subscription makes every old link invalid).
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;
  constructor(signingSecret: string) {
    this.key = createHmac('sha256', signingSecret).update('mail-unsubscribe').digest();
  }

  private mac(id: number): Buffer {
    return createHmac('sha256', this.key).update(`unsubscribe:${id}`).digest();
  }

  make(id: number): string {
    return `${id}.${this.mac(id).toString('base64url')}`;
  }

  /** The subscription id of a genuine token, else null. */
  read(token: unknown): number | null {
    if (typeof token !== 'string') return null;
    const m = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return null;
    const id = Number(m[1]);
    const given = Buffer.from(m[2] ?? '', 'base64url');
    const want = this.mac(id);
    return given.length === want.length && timingSafeEqual(given, want) ? id : null;
  }
}
