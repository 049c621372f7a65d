import { useEffect, useState } from 'react';

/** Dashboard figures are live: they refresh on their own this often. */
export const DASHBOARD_REFRESH_MS = 60_000;

/**
 * A counter that goes up every `intervalMs` while the tab is visible; no requests while hidden. Coming back to a
 * tab hidden for longer than the interval counts at once, so the figures are never staler than one interval.
 */
export function useRefreshTick(intervalMs = DASHBOARD_REFRESH_MS): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let last = Date.now();
    let timer: ReturnType<typeof setInterval> | undefined;
    const bump = (): void => {
      last = Date.now();
      setTick((t) => t + 1);
    };
    const start = (): void => {
      clearInterval(timer);
      timer = setInterval(bump, intervalMs);
    };
    const onVisibility = (): void => {
      if (document.visibilityState === 'hidden') {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      if (Date.now() - last >= intervalMs) bump();
      start();
    };
    if (document.visibilityState !== 'hidden') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);
  return tick;
}

/** "14:05" of "Updated 14:05", in the viewer's time (the portal's users are in India; the browser knows its zone). */
export function updatedTime(at: Date): string {
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}
