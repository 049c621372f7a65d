import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db';

export const SECRET_FILE = 'jwt-secret';

const generate = (): string => randomBytes(48).toString('base64url');

/** Reads the data folder's secret file, creating it (mode 0600) on first start; a racing start reads the winner's. */
function fileSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${generate()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600); // never readable by others
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters: delete it to generate a new one`);
  return secret;
}

/** The database's shared secret row, created once: every instance on one PostgreSQL signs with the same key. */
async function databaseSecret(db: Db): Promise<string> {
  await db.query(`INSERT INTO server_secrets (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`, [generate()]);
  const row = (await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt'`)).rows[0];
  if (!row) throw new Error('the jwt secret row is missing from server_secrets');
  return row.value;
}

/**
 * The key that signs access tokens and keys the captcha/OTP hashes: HHT_JWT_SECRET when set; otherwise a random
 * one generated on first start, kept in the data folder (embedded database) or in the database (PostgreSQL).
 * There is no built-in default any more: a token signed with the old public one is refused.
 */
export async function resolveSigningSecret(config: Config, db: Db): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  if (db.driver === 'pglite' && !config.databaseUrl) return fileSecret(config.dataDir);
  return databaseSecret(db);
}
