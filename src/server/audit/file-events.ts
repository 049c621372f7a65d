import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEvent } from './actions';

/** The files that configure the portal without a release: definitions, their SQL, the schemas and the menu. */
function portalFiles(rootDir: string): string[] {
  const list = (dir: string, exts: string[]): string[] =>
    existsSync(join(rootDir, dir))
      ? readdirSync(join(rootDir, dir)).filter((f) => exts.some((e) => f.endsWith(e))).sort().map((f) => `${dir}/${f}`)
      : [];
  return [
    ...list('reports', ['.json', '.sql']),
    ...list('schemas', ['.json']),
    ...list('schemas/fields', ['.json']),
    ...(existsSync(join(rootDir, 'menu.json')) ? ['menu.json'] : []),
  ];
}

interface Seen {
  sha256: string;
  refused: boolean;
}

/**
 * Tells the audit trail which portal files were loaded, changed or refused, each with its SHA-256: called after
 * every load of the definitions and of the menu with the files refused now (file -> reason). A file is recorded
 * when first seen, when its content changes, and when it goes from accepted to refused or back.
 */
export class PortalFileEvents {
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly rootDir: string,
    private readonly record: (e: AuditEvent) => void,
  ) {}

  check(refused: ReadonlyMap<string, string>): void {
    const present = new Set<string>();
    for (const file of portalFiles(this.rootDir)) {
      let text: Buffer;
      try {
        text = readFileSync(join(this.rootDir, file));
      } catch {
        continue; // removed between the listing and the read: the next load sees it gone
      }
      present.add(file);
      const sha256 = createHash('sha256').update(text).digest('hex');
      const reason = refused.get(file);
      const now: Seen = { sha256, refused: reason !== undefined };
      const before = this.seen.get(file);
      this.seen.set(file, now);
      if (before && before.sha256 === now.sha256 && before.refused === now.refused) continue;
      const action = now.refused ? 'definition_refused' : before ? 'definition_changed' : 'definition_loaded';
      this.record({ action, report: reportOf(file), details: { file, sha256, ...(reason !== undefined ? { reason } : {}) } });
    }
    for (const file of [...this.seen.keys()]) {
      if (present.has(file)) continue;
      this.seen.delete(file);
      this.record({ action: 'definition_changed', report: reportOf(file), details: { file, removed: true } });
    }
  }
}

/** The report id of a definition file (reports/<id>.json), else null. */
function reportOf(file: string): string | null {
  const m = /^reports\/([^/]+)\.json$/.exec(file);
  return m ? (m[1] as string) : null;
}
