import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_DataRouterStateContext, useLocation, useNavigationType } from 'react-router-dom';

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

/**
 * Anchor scrolling and scroll restoration for pages that render late.
 * - A new navigation with a hash scrolls to the element with that id once it has rendered (lazy pages and pages
 *   that load their data render it a little after the route commits).
 * - Back/forward to an entry with a saved position keeps that position, hash or not: React Router's
 *   ScrollRestoration restores it at commit; while the page is still too short to reach it (its data is loading),
 *   the position is applied again as the page grows, until reached or the user scrolls.
 */
export function useHashScroll(): void {
  const { hash, key } = useLocation();
  const navigationType = useNavigationType();
  // React Router's public ScrollRestoration keeps the position it restores in the router state only.
  const restore = useContext(UNSAFE_DataRouterStateContext)?.restoreScrollPosition;
  const saved = navigationType === 'POP' && typeof restore === 'number' ? restore : null;
  useEffect(() => {
    let target: () => number | null;
    if (saved !== null) {
      target = () => saved;
    } else {
      const id = elementId(hash);
      if (id === null) return;
      target = () => {
        const el = document.getElementById(id);
        return el ? el.getBoundingClientRect().top + window.scrollY - scrollMarginTop(el) : null;
      };
    }
    let frames = 0;
    let frame = 0;
    const stop = (): void => cancelAnimationFrame(frame);
    const userEvents = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const e of userEvents) window.addEventListener(e, stop, { once: true, passive: true });
    const attempt = (): void => {
      const y = target();
      if (y !== null) {
        window.scrollTo(0, y);
        // An anchor is done once found (the browser stops at the page end); a saved position once reached.
        if (saved === null || Math.abs(window.scrollY - y) <= 1) return;
      }
      if (++frames < 90) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => {
      stop();
      for (const e of userEvents) window.removeEventListener(e, stop);
    };
  }, [hash, key, saved]);
}

function elementId(hash: string): string | null {
  if (hash.length < 2) return null;
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return null; // not a decodable id: nothing to scroll to
  }
}

function scrollMarginTop(el: Element): number {
  return parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
}
