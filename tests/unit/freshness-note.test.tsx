// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { loadAppTexts, setLanguage } from '../../src/client/i18n';
import { FreshnessNote } from '../../src/client/lib/freshness/FreshnessNote';
import { parseFreshness, type Freshness } from '../../src/shared/freshness';

const answer: Freshness = {
  asOf: '2026-03-15T06:03:50.000Z',
  computedAt: '2026-03-15T06:30:00.000Z',
  staleAfterMinutes: 60,
  beats: [
    { beatNo: 1, tteId: 'NDLS014', deviceId: 'HHT00011', lastSyncAt: '2026-03-15T06:03:50.000Z', lagMinutes: 26, onDuty: true, stale: false },
    { beatNo: 2, tteId: 'NDLS020', deviceId: 'HHT00012', lastSyncAt: null, lagMinutes: null, onDuty: true, stale: true },
  ],
};

beforeAll(async () => {
  await loadAppTexts();
});
afterEach(async () => {
  cleanup();
  await setLanguage('en');
});

describe('the freshness of an answer on screen', () => {
  it('says as of when, how far before the answer, the cache age, each beat and the stale one', () => {
    render(<FreshnessNote freshness={answer} cacheAgeSeconds={75} />);
    expect(screen.getByTestId('freshness-asof').textContent).toBe('Data as of 15/03/2026, 11:33 (26 min before this answer)');
    expect(screen.getByTestId('freshness-cache').textContent).toContain("answered from the server's cache, 1 min old");
    expect(screen.getByTestId('freshness-beat-1').textContent).toBe('Beat 1 (NDLS014): last sync 15/03/2026, 11:33, 26 min ago');
    expect(screen.getByTestId('freshness-beat-2').textContent).toBe('Beat 2 (NDLS020): nothing synced yet Stale: no sync for over 1 h');
    // A stale beat opens the list at once.
    expect(screen.getByText(/Last sync of each of 2 beats/).closest('details')?.open).toBe(true);
  });

  it('is worded in Hindi when Hindi is chosen', async () => {
    await setLanguage('hi');
    render(<FreshnessNote freshness={answer} />);
    expect(screen.getByTestId('freshness-asof').textContent).toMatch(/^डेटा 15\/03\/2026.* तक का \(इस उत्तर से 26 मिनट पहले\)$/);
    expect(screen.getByTestId('freshness-beat-2').textContent).toContain('पुराना: 1 घंटा से अधिक समय से सिंक नहीं');
    expect(screen.queryByTestId('freshness-cache')).toBeNull();
    // No English words (am/pm) in a Hindi line: times are 24-hour.
    expect(screen.getByTestId('freshness').textContent).not.toMatch(/\b(am|pm)\b/i);
  });

  it('shows nothing for an answer without freshness, and a compact card line without beats', () => {
    const { container } = render(<FreshnessNote freshness={null} />);
    expect(container.textContent).toBe('');
    render(<FreshnessNote compact freshness={{ ...answer, beats: undefined } as unknown as Freshness} />);
    expect(screen.queryByText(/beat/i)).toBeNull();
  });

  it('reads only a well-formed freshness from an answer', () => {
    expect(parseFreshness(JSON.parse(JSON.stringify(answer)))).toEqual(answer);
    expect(parseFreshness({ ...answer, asOf: 'yesterday' })).toBeNull();
    expect(parseFreshness({ ...answer, beats: [{ beatNo: 'one' }] })).toBeNull();
    expect(parseFreshness(undefined)).toBeNull();
  });
});
