import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIG,
  initialLayoutState,
  isMenuOverContent,
  isScrollBlocked,
  isSidebarVisible,
  layoutReducer,
  loadLayoutConfig,
  parseLayoutConfig,
  registerTriggerClick,
  saveLayoutConfig,
  LAYOUT_CONFIG_KEY,
  type LayoutAction,
  type LayoutState,
} from '../../src/client/layout/layout-state';
import { parseThemeGroups, THEME_GROUPS } from '../../src/client/layout/themes';
import { accessibleThemeCss, parseAccessiblePrimary } from '../../src/shared/theme-contrast';

const themeEntries = (JSON.parse(readFileSync('themes/themes.json', 'utf8')) as { groups: { themes: { id: string; accessible?: unknown }[] }[] }).groups.flatMap((g) => g.themes);

const run = (s: LayoutState, ...actions: LayoutAction[]): LayoutState => actions.reduce(layoutReducer, s);
const overlay = run(initialLayoutState(), { type: 'menuModeChanged', menuMode: 'overlay' });

describe('layout reducer', () => {
  it('defaults: static menu, lara-light-indigo, scale 14, everything closed', () => {
    const s = initialLayoutState();
    expect(s.config).toEqual({ scale: 14, menuMode: 'static', inputStyle: 'outlined', ripple: false, theme: 'lara-light-indigo', colorScheme: 'light' });
    expect(Object.values(s.flags).every((f) => f === false)).toBe(true);
    expect(isSidebarVisible(s, true)).toBe(true);
    expect(isSidebarVisible(s, false)).toBe(false);
  });

  it('static desktop: the toggle docks and undocks the menu, no mask, no scroll block', () => {
    const s = run(initialLayoutState(), { type: 'menuToggled', desktop: true });
    expect(s.flags.staticMenuDesktopInactive).toBe(true);
    expect(isSidebarVisible(s, true)).toBe(false);
    expect(isMenuOverContent(s, true)).toBe(false);
    expect(isScrollBlocked(s, true)).toBe(false);
    expect(run(s, { type: 'menuToggled', desktop: true }).flags.staticMenuDesktopInactive).toBe(false);
    // navigation does not undock a docked static menu
    expect(run(initialLayoutState(), { type: 'menusClosed' }).flags.staticMenuDesktopInactive).toBe(false);
  });

  it('static mobile: the toggle opens the off-canvas menu with mask and scroll block; navigation closes it', () => {
    const s = run(initialLayoutState(), { type: 'menuToggled', desktop: false });
    expect(s.flags.staticMenuMobileActive).toBe(true);
    expect(isMenuOverContent(s, false)).toBe(true);
    expect(isScrollBlocked(s, false)).toBe(true);
    const closed = run(s, { type: 'menusClosed' });
    expect(isMenuOverContent(closed, false)).toBe(false);
    expect(isScrollBlocked(closed, false)).toBe(false);
  });

  it('overlay: the toggle opens over the content at any width (mask, no scroll block) and closes', () => {
    for (const desktop of [true, false]) {
      const s = run(overlay, { type: 'menuToggled', desktop });
      expect(s.flags.overlayMenuActive).toBe(true);
      expect(isMenuOverContent(s, desktop)).toBe(true);
      expect(isScrollBlocked(s, desktop)).toBe(false);
      expect(run(s, { type: 'menuToggled', desktop }).flags.overlayMenuActive).toBe(false);
      expect(run(s, { type: 'menusClosed' }).flags.overlayMenuActive).toBe(false);
    }
  });

  it('profile menu toggles, closes alone, and closes with the menus', () => {
    const s = run(initialLayoutState(), { type: 'profileMenuToggled' });
    expect(s.flags.profileSidebarVisible).toBe(true);
    expect(run(s, { type: 'profileMenuClosed' }).flags.profileSidebarVisible).toBe(false);
    expect(run(s, { type: 'menusClosed' }).flags.profileSidebarVisible).toBe(false);
    expect(run(s, { type: 'profileMenuToggled' }).flags.profileSidebarVisible).toBe(false);
  });

  it('menusClosed with nothing open returns the same state (no re-render)', () => {
    const s = initialLayoutState();
    expect(layoutReducer(s, { type: 'menusClosed' })).toBe(s);
  });

  it('changing the menu mode leaves no menu open from the other mode', () => {
    const s = run(overlay, { type: 'menuToggled', desktop: true }, { type: 'menuModeChanged', menuMode: 'static' });
    expect(s.flags.overlayMenuActive).toBe(false);
    expect(s.config.menuMode).toBe('static');
  });

  it('scale steps between 12 and 16 and stops at the ends', () => {
    const up = (n: number) => Array.from({ length: n }, (): LayoutAction => ({ type: 'scaleStepped', by: 1 }));
    const down = (n: number) => Array.from({ length: n }, (): LayoutAction => ({ type: 'scaleStepped', by: -1 }));
    expect(run(initialLayoutState(), ...up(1)).config.scale).toBe(15);
    expect(run(initialLayoutState(), ...up(5)).config.scale).toBe(16);
    expect(run(initialLayoutState(), ...down(5)).config.scale).toBe(12);
    const top = run(initialLayoutState(), ...up(2));
    expect(layoutReducer(top, { type: 'scaleStepped', by: 1 })).toBe(top);
  });

  it('config sidebar, input style, ripple and theme are named actions', () => {
    const s = run(
      initialLayoutState(),
      { type: 'configSidebarOpened' },
      { type: 'inputStyleChanged', inputStyle: 'filled' },
      { type: 'rippleChanged', ripple: true },
      { type: 'themeApplied', theme: 'arya-blue', colorScheme: 'dark' },
    );
    expect(s.flags.configSidebarVisible).toBe(true);
    expect(s.config).toMatchObject({ inputStyle: 'filled', ripple: true, theme: 'arya-blue', colorScheme: 'dark' });
    expect(run(s, { type: 'configSidebarClosed' }).flags.configSidebarVisible).toBe(false);
  });
});

describe('layout configuration in local storage', () => {
  const mem = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
  };

  it('round-trips a configuration', () => {
    const st = mem();
    const cfg = { ...DEFAULT_CONFIG, scale: 16, menuMode: 'overlay' as const, theme: 'vela-green', colorScheme: 'dark' as const };
    saveLayoutConfig(st, cfg);
    expect(loadLayoutConfig(st)).toEqual(cfg);
  });

  it.each([
    ['not JSON', '{oops'],
    ['an array', '[1,2]'],
    ['null', 'null'],
  ])('falls back to the defaults on %s', (_n, text) => {
    const st = mem();
    st.m.set(LAYOUT_CONFIG_KEY, text);
    expect(loadLayoutConfig(st)).toEqual(DEFAULT_CONFIG);
  });

  it('checks each field: bad values take their default, the scheme follows the theme', () => {
    expect(parseLayoutConfig({ scale: 20, menuMode: 'slim', inputStyle: 'filled', ripple: 'yes', theme: 'luna-blue', colorScheme: 'dark' })).toEqual({
      ...DEFAULT_CONFIG,
      inputStyle: 'filled',
    });
    expect(parseLayoutConfig({ scale: 13.5 }).scale).toBe(14);
    expect(parseLayoutConfig({ theme: 'md-dark-indigo', colorScheme: 'light' })).toMatchObject({ theme: 'md-dark-indigo', colorScheme: 'dark' });
  });
});

describe('footer game trigger', () => {
  it('fires on the third click within 1200 ms', () => {
    let r = registerTriggerClick([], 0);
    r = registerTriggerClick(r.clicks, 500);
    expect(r.fired).toBe(false);
    r = registerTriggerClick(r.clicks, 1200);
    expect(r.fired).toBe(true);
    expect(r.clicks).toEqual([]);
  });

  it('does not fire when the clicks are spread over more than 1200 ms', () => {
    let r = registerTriggerClick([], 0);
    r = registerTriggerClick(r.clicks, 700);
    r = registerTriggerClick(r.clicks, 1300);
    expect(r.fired).toBe(false);
    r = registerTriggerClick(r.clicks, 1600);
    expect(r.fired).toBe(true);
  });
});

describe('themes/themes.json', () => {
  it('holds the spec groups with exactly the spec theme ids', () => {
    expect(THEME_GROUPS.map((g) => [g.label, g.themes.map((t) => t.id)])).toEqual([
      ['Bootstrap', ['bootstrap4-light-blue', 'bootstrap4-light-purple', 'bootstrap4-dark-blue', 'bootstrap4-dark-purple']],
      ['Material Design', ['md-light-indigo', 'md-light-deeppurple', 'md-dark-indigo', 'md-dark-deeppurple']],
      ['Material Design Compact', ['mdc-light-indigo', 'mdc-light-deeppurple', 'mdc-dark-indigo', 'mdc-dark-deeppurple']],
      ['Tailwind', ['tailwind-light']],
      ['Fluent', ['fluent-light']],
      ['PrimeOne 2022', ['lara-light-indigo', 'lara-light-blue', 'lara-light-purple', 'lara-light-teal', 'lara-dark-indigo', 'lara-dark-blue', 'lara-dark-purple', 'lara-dark-teal']],
      ['PrimeOne 2021', ['saga-blue', 'saga-green', 'saga-orange', 'saga-purple', 'vela-blue', 'vela-green', 'vela-orange', 'vela-purple', 'arya-blue', 'arya-green', 'arya-orange', 'arya-purple']],
    ]);
  });

  it('gives each theme the colour scheme its name says, and primereact ships each one', () => {
    for (const t of THEME_GROUPS.flatMap((g) => g.themes)) {
      const dark = /-dark-|^vela-|^arya-/.test(t.id);
      expect([t.id, t.colorScheme]).toEqual([t.id, dark ? 'dark' : 'light']);
      expect(existsSync(`node_modules/primereact/resources/themes/${t.id}/theme.css`)).toBe(true);
    }
  });

  it("shows each theme by its own colours: the swatch's primary and surface are the theme CSS's", () => {
    for (const t of THEME_GROUPS.flatMap((g) => g.themes)) {
      // As served: with themes.json's "accessible" primary where the theme's own is under 4.5:1.
      const entry = themeEntries.find((e) => e.id === t.id);
      const fix = parseAccessiblePrimary(entry?.accessible);
      const css = accessibleThemeCss(readFileSync(`node_modules/primereact/resources/themes/${t.id}/theme.css`, 'utf8'), typeof fix === 'string' ? undefined : fix);
      const variable = (name: string): string | undefined => new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim().toLowerCase();
      expect([t.id, t.primary, t.surface]).toEqual([t.id, variable('primary-color'), variable('surface-card')]);
    }
    // Not all alike: the panel tells the themes apart by colour, not only by name.
    expect(new Set(THEME_GROUPS.flatMap((g) => g.themes.map((t) => t.primary))).size).toBeGreaterThan(15);
  });

  it('rejects a malformed file', () => {
    const doc = JSON.parse(readFileSync('themes/themes.json', 'utf8'));
    doc.groups[0].themes[0].colorScheme = 'grey';
    expect(() => parseThemeGroups(doc)).toThrow(/groups\/0\/themes\/0/);
  });
});
