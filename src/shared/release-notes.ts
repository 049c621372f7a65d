/** Whats New: docs/release-notes.json, validated by schemas/release-notes.schema.json, newest first. */
export interface ReleaseChange {
  area: string;
  text: string;
  /** Optional Hindi: shown when the interface is in Hindi, else the English. */
  hi?: { area: string; text: string };
}

export interface Release {
  version: string;
  name: string;
  date: string;
  summary: string;
  hi?: { summary: string };
  changes: ReleaseChange[];
}

export interface ReleaseNotes {
  $schema?: string;
  releases: Release[];
}

/** 'v2.1.0' -> [2, 1, 0]. */
export function parseVersion(v: string): [number, number, number] | null {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return 0;
  for (let i = 0; i < 3; i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
