import { configure } from '@testing-library/react';
import { loadAppTexts } from '../../src/client/i18n';

/** A matchMedia that matches nothing: jsdom lacks it, and PrimeReact's overlays look for it. */
export function stubMatchMedia(): void {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

/**
 * What a test of the report page needs before its first render: the page's texts (the signed-in shell loads them in
 * the app), a longer wait for the first render (it loads AG Grid and RJSF: slower than the default 1 s on a busy
 * machine), and what jsdom lacks that PrimeReact and AG Grid look for (ResizeObserver, matchMedia).
 */
export async function prepareReportPageDom(): Promise<void> {
  await loadAppTexts();
  configure({ asyncUtilTimeout: 8000 });
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
  stubMatchMedia();
}
