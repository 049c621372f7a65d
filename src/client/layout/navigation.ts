import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Same-URL navigation reloads: a navigation to the URL already shown (a new location key, same path, search and
 * hash) bumps a counter. Used as a React key, it remounts the page, so its data loads again. Other navigations
 * change the path anyway; hash-only changes keep the page mounted (they scroll).
 */
export function useReloadKey(): string {
  const location = useLocation();
  const url = `${location.pathname}${location.search}${location.hash}`;
  const last = useRef({ url, key: location.key });
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (last.current.url === url && last.current.key !== location.key) setReloads((n) => n + 1);
    last.current = { url, key: location.key };
  }, [url, location.key]);
  return `${location.pathname}${location.search}|${reloads}`;
}

/** Anchor scrolling: after a navigation with a hash, scroll to the element with that id once it has rendered. */
export function useHashScroll(): void {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!hash || hash.length < 2) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    let tries = 0;
    let frame = 0;
    const attempt = (): void => {
      const el = document.getElementById(id);
      if (el) {
        el.scrollIntoView();
        return;
      }
      if (++tries < 60) frame = requestAnimationFrame(attempt); // lazily loaded pages render a little later
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [hash, key]);
}
