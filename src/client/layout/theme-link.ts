import { findTheme, themeHref, type ColorScheme } from './themes';

const LINK_ID = 'theme-link';

/** Puts the colour scheme on <html> (native controls, scrollbars) and as data-color-scheme for our CSS. */
export function applyColorScheme(scheme: ColorScheme, doc: Document = document): void {
  doc.documentElement.style.colorScheme = scheme;
  doc.documentElement.dataset.colorScheme = scheme;
}

function waitFor(link: HTMLLinkElement): Promise<void> {
  return new Promise((resolve, reject) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => reject(new Error(`cannot load ${link.href}`)), { once: true });
  });
}

function newLink(doc: Document, id: string, href: string): HTMLLinkElement {
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.id = id;
  link.href = href;
  link.dataset.theme = '';
  return link;
}

/**
 * Swaps the theme stylesheet without a flash of unstyled content: the new <link> loads next to the old one, and only
 * when it has loaded is the old one removed. On error the new link is dropped and the old theme stays (rejects).
 */
export async function swapTheme(id: string, doc: Document = document): Promise<void> {
  const theme = findTheme(id);
  if (!theme) throw new Error(`unknown theme ${id}`);
  const old = doc.getElementById(LINK_ID);
  const next = newLink(doc, `${LINK_ID}-next`, themeHref(id));
  const loaded = waitFor(next);
  if (old?.parentNode) old.parentNode.insertBefore(next, old.nextSibling);
  else doc.head.prepend(next);
  try {
    await loaded;
  } catch (err) {
    next.remove();
    throw err;
  }
  old?.remove();
  next.id = LINK_ID;
  next.dataset.theme = id;
  applyColorScheme(theme.colorScheme, doc);
}

/**
 * First theme at start-up (before the first render): the stored theme, falling back to the default when it cannot be
 * loaded. Never waits longer than timeoutMs, so a slow network cannot keep the page blank. When index.html already
 * links the stored theme (the default one), returns at once.
 */
export async function bootTheme(id: string, fallbackId: string, timeoutMs = 4000, doc: Document = document): Promise<string> {
  const linked = doc.getElementById(LINK_ID);
  const linkedTheme = linked instanceof HTMLLinkElement ? linked.dataset.theme : undefined;
  const stored = findTheme(id);
  if (stored && linkedTheme === id) {
    // index.html already links it (the default theme): nothing to fetch or wait for.
    applyColorScheme(stored.colorScheme, doc);
    return id;
  }
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
  for (const candidate of id === fallbackId ? [id] : [id, fallbackId]) {
    try {
      // On timeout the link keeps loading and takes effect when it arrives.
      await Promise.race([swapTheme(candidate, doc), timeout]);
      return candidate;
    } catch {
      // try the fallback
    }
  }
  return fallbackId;
}
