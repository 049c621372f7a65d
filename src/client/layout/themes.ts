import themesJson from '../../../themes/themes.json';
import { parseAccessiblePrimary } from '../../shared/theme-contrast';

export type ColorScheme = 'light' | 'dark';

export interface ThemeOption {
  id: string;
  label: string;
  colorScheme: ColorScheme;
  /**
   * The theme's primary and card colours (its --primary-color and --surface-card), drawn as its swatch: the primary
   * as served, i.e. themes.json's "accessible" one where the theme's own is too light or too dark to read.
   */
  primary: string;
  surface: string;
}

export interface ThemeGroup {
  label: string;
  themes: ThemeOption[];
}

const isColour = (v: unknown): v is string => typeof v === 'string' && /^#[0-9a-f]{6}$/.test(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks themes/themes.json (bundled at build time) and throws on a malformed file, so a bad edit fails the build's tests. */
export function parseThemeGroups(value: unknown): ThemeGroup[] {
  if (!isRecord(value) || !Array.isArray(value.groups)) throw new Error('themes.json: "groups" must be an array');
  return value.groups.map((g, i) => {
    if (!isRecord(g) || typeof g.label !== 'string' || !Array.isArray(g.themes)) {
      throw new Error(`themes.json: /groups/${i} needs a label and themes`);
    }
    return {
      label: g.label,
      themes: g.themes.map((t, j) => {
        if (
          !isRecord(t) || typeof t.id !== 'string' || !/^[a-z0-9-]+$/.test(t.id) || typeof t.label !== 'string' ||
          (t.colorScheme !== 'light' && t.colorScheme !== 'dark') || !isColour(t.primary) || !isColour(t.surface)
        ) {
          throw new Error(`themes.json: /groups/${i}/themes/${j} needs id, label, colorScheme light|dark and primary/surface #rrggbb colours`);
        }
        const accessible = parseAccessiblePrimary(t.accessible);
        if (typeof accessible === 'string') throw new Error(`themes.json: /groups/${i}/themes/${j}: ${accessible}`);
        return { id: t.id, label: t.label, colorScheme: t.colorScheme, primary: accessible?.primary ?? t.primary, surface: t.surface };
      }),
    };
  });
}

export const THEME_GROUPS: ThemeGroup[] = parseThemeGroups(themesJson);
export const ALL_THEMES: ThemeOption[] = THEME_GROUPS.flatMap((g) => g.themes);

/** themes.json's "default": one of its themes; index.html links it (see the themes plugin in vite.config.ts). */
export function parseDefaultTheme(value: unknown, themes: ThemeOption[]): string {
  const id = isRecord(value) ? value.default : undefined;
  if (typeof id !== 'string' || !themes.some((t) => t.id === id)) throw new Error('themes.json: "default" must be the id of one of its themes');
  return id;
}

export const DEFAULT_THEME_ID: string = parseDefaultTheme(themesJson, ALL_THEMES);

export function findTheme(id: string): ThemeOption | undefined {
  return ALL_THEMES.find((t) => t.id === id);
}

/** Where the build (and the dev server) serve a theme's stylesheet; see the themes plugin in vite.config.ts. */
export function themeHref(id: string): string {
  return `/themes/${id}/theme.css`;
}
