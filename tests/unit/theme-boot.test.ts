// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { bootTheme } from '../../src/client/layout/theme-link';
import { DEFAULT_CONFIG } from '../../src/client/layout/layout-state';
import { ALL_THEMES, DEFAULT_THEME_ID, findTheme, parseDefaultTheme } from '../../src/client/layout/themes';

/** index.html carries the default theme's <link> (vite.config.ts); the entry only swaps it for another stored theme. */
function htmlThemeLink(): void {
  document.head.innerHTML = `<link rel="stylesheet" id="theme-link" data-theme="${DEFAULT_THEME_ID}" href="/themes/${DEFAULT_THEME_ID}/theme.css">`;
}

describe('theme at start-up', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
    delete document.documentElement.dataset.colorScheme;
  });

  it('the default theme is themes.json\'s "default", a light one', () => {
    expect(DEFAULT_CONFIG.theme).toBe(DEFAULT_THEME_ID);
    expect(findTheme(DEFAULT_THEME_ID)?.colorScheme).toBe(DEFAULT_CONFIG.colorScheme);
  });

  it('refuses a themes.json whose "default" is not one of its themes', () => {
    expect(() => parseDefaultTheme({ default: 'no-such-theme' }, ALL_THEMES)).toThrow(/"default"/);
    expect(() => parseDefaultTheme({}, ALL_THEMES)).toThrow(/"default"/);
  });

  it('uses the theme index.html links at once: no second request, nothing to wait for', async () => {
    htmlThemeLink();
    await expect(bootTheme(DEFAULT_THEME_ID, DEFAULT_THEME_ID, 60_000)).resolves.toBe(DEFAULT_THEME_ID);
    const links = document.head.querySelectorAll('link');
    expect(links).toHaveLength(1);
    expect(links[0]?.id).toBe('theme-link');
    expect(document.documentElement.dataset.colorScheme).toBe('light');
  });

  it('a stored other theme is loaded next to the linked one, which goes once the new one has loaded', async () => {
    htmlThemeLink();
    const booted = bootTheme('lara-dark-blue', DEFAULT_THEME_ID, 60_000);
    const next = document.getElementById('theme-link-next');
    expect(next?.getAttribute('href')).toBe('/themes/lara-dark-blue/theme.css');
    next?.dispatchEvent(new Event('load')); // jsdom fetches no stylesheets: say it arrived
    await expect(booted).resolves.toBe('lara-dark-blue');
    const links = [...document.head.querySelectorAll('link')];
    expect(links.map((l) => [l.id, l.dataset.theme])).toEqual([['theme-link', 'lara-dark-blue']]);
    expect(document.documentElement.dataset.colorScheme).toBe('dark');
  });
});
