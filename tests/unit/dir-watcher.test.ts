import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DirWatcher } from '../../src/server/dir-watcher';

describe('DirWatcher', () => {
  let root: string;
  let w: DirWatcher | undefined;
  afterEach(() => {
    w?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sees repeated atomic saves of one file, and its deletion, each once after the debounce', async () => {
    root = mkdtempSync(join(tmpdir(), 'hht-watch-'));
    writeFileSync(join(root, 'a.json'), '1');
    let changes = 0;
    w = new DirWatcher({ dirs: [root], debounceMs: 50, onChange: () => (changes += 1), onError: () => undefined });
    for (let i = 2; i <= 4; i += 1) {
      const before = changes;
      writeFileSync(join(root, 'a.json.tmp'), String(i));
      renameSync(join(root, 'a.json.tmp'), join(root, 'a.json'));
      await expect.poll(() => changes, { timeout: 2000, interval: 20 }).toBe(before + 1);
    }
    const before = changes;
    rmSync(join(root, 'a.json'));
    await expect.poll(() => changes, { timeout: 2000, interval: 20 }).toBe(before + 1);
  });

  it('says once that a folder is missing, and watches it once it exists', async () => {
    root = mkdtempSync(join(tmpdir(), 'hht-watch-'));
    const later = join(root, 'reports');
    const errors: string[] = [];
    let changes = 0;
    w = new DirWatcher({ dirs: [later], debounceMs: 20, retryMs: 50, onChange: () => (changes += 1), onError: (d) => errors.push(d) });
    await new Promise((r) => setTimeout(r, 300));
    expect(errors).toEqual([later]);
    mkdirSync(later);
    await expect.poll(() => changes, { timeout: 2000, interval: 20 }).toBeGreaterThan(0); // watched: a re-scan is due
    const before = changes;
    writeFileSync(join(later, 'new.json'), '{}');
    await expect.poll(() => changes, { timeout: 2000, interval: 20 }).toBeGreaterThan(before);
  });
});
