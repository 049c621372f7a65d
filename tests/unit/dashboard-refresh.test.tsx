// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { updatedTime, useRefreshTick } from '../../src/client/features/dashboard/refresh';

let visibility: DocumentVisibilityState = 'visible';
const setVisibility = (v: DocumentVisibilityState): void => {
  visibility = v;
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('dashboard refresh tick', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });
  afterEach(() => vi.useRealTimers());

  it('counts every minute while the tab is visible', () => {
    const { result } = renderHook(() => useRefreshTick(60_000));
    expect(result.current).toBe(0);
    act(() => void vi.advanceTimersByTime(59_000));
    expect(result.current).toBe(0);
    act(() => void vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(1);
    act(() => void vi.advanceTimersByTime(120_000));
    expect(result.current).toBe(3);
  });

  it('pauses while hidden and catches up at once when shown after more than a minute', () => {
    const { result } = renderHook(() => useRefreshTick(60_000));
    act(() => setVisibility('hidden'));
    act(() => void vi.advanceTimersByTime(300_000));
    expect(result.current).toBe(0);
    act(() => setVisibility('visible'));
    expect(result.current).toBe(1);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(2);
  });

  it('does not refresh on showing a tab hidden only briefly', () => {
    const { result } = renderHook(() => useRefreshTick(60_000));
    act(() => void vi.advanceTimersByTime(10_000));
    act(() => setVisibility('hidden'));
    act(() => void vi.advanceTimersByTime(5_000));
    act(() => setVisibility('visible'));
    expect(result.current).toBe(0);
  });

  it('says when the figures were loaded', () => {
    expect(updatedTime(new Date(2026, 2, 15, 9, 5))).toBe('09:05'); // shown as 'Updated 09:05' (dashboard.updated)
  });
});
