import { useSyncExternalStore } from 'react';

/** At or below this width a result is a card list instead of a grid (phones, held upright). */
export const CARD_LIST_MAX_WIDTH = 600;
const query = `(max-width: ${CARD_LIST_MAX_WIDTH}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const mq = window.matchMedia(query);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
const matches = (): boolean => typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(query).matches;

/** Whether the screen is narrow enough for the card list; follows rotation and resizing. */
export const useNarrowScreen = (): boolean => useSyncExternalStore(subscribe, matches, () => false);
