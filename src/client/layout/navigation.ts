import { useContext, useEffect, useRef } from 'react';
import { UNSAFE_DataRouterStateContext, useLocation, useNavigationType } from 'react-router-dom';

/**
 * Same-URL navigation reloads: a navigation to the URL already shown (a new location key, same path, search and
 * hash) bumps a counter. Used as a React key, it remounts the page, so its data loads again. Other navigations
 * change the path or search anyway; hash-only changes keep the page mounted (they scroll), and so does a search
 * written in place (a REPLACE on the same path: a report's opening run puts its filter into the URL, and remounting
 * there loaded the report's definition a second time on every opening). The URL shown is then still the one the
 * page was opened at, so following the menu link to it again reloads the page.
 */
export function useReloadKey(): string {
  const location = useLocation();
  const navigationType = useNavigationType();
  // Worked out during render (the key must be right in the render that shows the new location); repeating it for
  // the same location changes nothing.
  const shown = useRef({ path: location.pathname, search: location.search, hash: location.hash, key: location.key, reloads: 0 });
  const s = shown.current;
  if (location.key !== s.key) {
    const samePath = location.pathname === s.path;
    if (!(navigationType === 'REPLACE' && samePath)) {
      if (samePath && location.search === s.search && location.hash === s.hash) s.reloads += 1;
      s.path = location.pathname;
      s.search = location.search;
      s.hash = location.hash;
    }
    s.key = location.key;
  }
  return `${s.path}${s.search}|${s.reloads}`;
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
