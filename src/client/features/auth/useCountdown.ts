import { useEffect, useState } from 'react';

const secondsLeft = (deadline: number | null): number =>
  deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

/**
 * Whole seconds left until `deadline` (ms since epoch, or null). Computed from the clock at every render, so a
 * new deadline counts at once; a one-second tick re-renders until it reaches 0.
 */
export function useCountdown(deadline: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const id = window.setInterval(() => {
      setTick((t) => t + 1);
      if (secondsLeft(deadline) === 0) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [deadline]);
  return secondsLeft(deadline);
}
