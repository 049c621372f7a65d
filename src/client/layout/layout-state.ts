import { DEFAULT_THEME_ID, findTheme, type ColorScheme } from './themes';

/** Spec section 3: layout configuration, persisted in local storage. */
export type MenuMode = 'static' | 'overlay';
export type InputStyle = 'outlined' | 'filled';

export interface LayoutConfig {
  scale: number;
  menuMode: MenuMode;
  inputStyle: InputStyle;
  ripple: boolean;
  theme: string;
  colorScheme: ColorScheme;
}

/** Spec section 3: layout state flags. */
export interface LayoutFlags {
  configSidebarVisible: boolean;
  overlayMenuActive: boolean;
  staticMenuMobileActive: boolean;
  menuHoverActive: boolean;
  profileSidebarVisible: boolean;
  staticMenuDesktopInactive: boolean;
}

export interface LayoutState {
  config: LayoutConfig;
  flags: LayoutFlags;
}

export const SCALES = [12, 13, 14, 15, 16] as const;
export const MIN_SCALE = 12;
export const MAX_SCALE = 16;
/** Spec section 9: desktop means a width above 991 px. */
export const DESKTOP_MIN_WIDTH = 992;

export const DEFAULT_CONFIG: LayoutConfig = {
  scale: 14,
  menuMode: 'static',
  inputStyle: 'outlined',
  ripple: false,
  theme: DEFAULT_THEME_ID,
  colorScheme: findTheme(DEFAULT_THEME_ID)?.colorScheme ?? 'light',
};

export const CLOSED_FLAGS: LayoutFlags = {
  configSidebarVisible: false,
  overlayMenuActive: false,
  staticMenuMobileActive: false,
  menuHoverActive: false,
  profileSidebarVisible: false,
  staticMenuDesktopInactive: false,
};

export const LAYOUT_CONFIG_KEY = 'hht.layoutConfig';

/** Named layout actions: every change to the layout goes through one of these. */
export type LayoutAction =
  | { type: 'menuToggled'; desktop: boolean }
  | { type: 'menusClosed' }
  | { type: 'menuHoverChanged'; active: boolean }
  | { type: 'profileMenuToggled' }
  | { type: 'profileMenuClosed' }
  | { type: 'configSidebarOpened' }
  | { type: 'configSidebarClosed' }
  | { type: 'scaleStepped'; by: 1 | -1 }
  | { type: 'menuModeChanged'; menuMode: MenuMode }
  | { type: 'inputStyleChanged'; inputStyle: InputStyle }
  | { type: 'rippleChanged'; ripple: boolean }
  | { type: 'themeApplied'; theme: string; colorScheme: ColorScheme };

export function initialLayoutState(config: LayoutConfig = DEFAULT_CONFIG): LayoutState {
  return { config, flags: CLOSED_FLAGS };
}

const clampScale = (n: number): number => Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(n)));

export function layoutReducer(state: LayoutState, action: LayoutAction): LayoutState {
  const { config, flags } = state;
  switch (action.type) {
    case 'menuToggled':
      if (config.menuMode === 'overlay') {
        return { ...state, flags: { ...flags, overlayMenuActive: !flags.overlayMenuActive, profileSidebarVisible: false } };
      }
      if (action.desktop) {
        return { ...state, flags: { ...flags, staticMenuDesktopInactive: !flags.staticMenuDesktopInactive } };
      }
      return { ...state, flags: { ...flags, staticMenuMobileActive: !flags.staticMenuMobileActive, profileSidebarVisible: false } };
    case 'menusClosed':
      if (!flags.overlayMenuActive && !flags.staticMenuMobileActive && !flags.menuHoverActive && !flags.profileSidebarVisible) {
        return state;
      }
      return {
        ...state,
        flags: { ...flags, overlayMenuActive: false, staticMenuMobileActive: false, menuHoverActive: false, profileSidebarVisible: false },
      };
    case 'menuHoverChanged':
      return flags.menuHoverActive === action.active ? state : { ...state, flags: { ...flags, menuHoverActive: action.active } };
    case 'profileMenuToggled':
      return { ...state, flags: { ...flags, profileSidebarVisible: !flags.profileSidebarVisible } };
    case 'profileMenuClosed':
      return flags.profileSidebarVisible ? { ...state, flags: { ...flags, profileSidebarVisible: false } } : state;
    case 'configSidebarOpened':
      return { ...state, flags: { ...flags, configSidebarVisible: true, profileSidebarVisible: false } };
    case 'configSidebarClosed':
      return { ...state, flags: { ...flags, configSidebarVisible: false } };
    case 'scaleStepped': {
      const scale = clampScale(config.scale + action.by);
      return scale === config.scale ? state : { ...state, config: { ...config, scale } };
    }
    case 'menuModeChanged':
      // A mode change starts from a closed menu, so no mask is left over from the other mode.
      return {
        config: { ...config, menuMode: action.menuMode },
        flags: { ...flags, overlayMenuActive: false, staticMenuMobileActive: false, staticMenuDesktopInactive: false },
      };
    case 'inputStyleChanged':
      return { ...state, config: { ...config, inputStyle: action.inputStyle } };
    case 'rippleChanged':
      return { ...state, config: { ...config, ripple: action.ripple } };
    case 'themeApplied':
      return { ...state, config: { ...config, theme: action.theme, colorScheme: action.colorScheme } };
  }
}

/** A menu is shown over the content (so the mask dims the page): overlay mode, or the mobile static menu. */
export function isMenuOverContent(state: LayoutState, desktop: boolean): boolean {
  if (state.config.menuMode === 'overlay') return state.flags.overlayMenuActive;
  return !desktop && state.flags.staticMenuMobileActive;
}

/** The side menu is visible (docked or over the content). */
export function isSidebarVisible(state: LayoutState, desktop: boolean): boolean {
  if (state.config.menuMode === 'overlay') return state.flags.overlayMenuActive;
  return desktop ? !state.flags.staticMenuDesktopInactive : state.flags.staticMenuMobileActive;
}

/** Page scrolling is blocked while the mobile static menu is open (spec section 2). */
export function isScrollBlocked(state: LayoutState, desktop: boolean): boolean {
  return !desktop && state.config.menuMode === 'static' && state.flags.staticMenuMobileActive;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Layout configuration from local storage: each field is checked, and a bad or missing one falls back to its default. */
export function parseLayoutConfig(value: unknown): LayoutConfig {
  if (!isRecord(value)) return DEFAULT_CONFIG;
  const theme = typeof value.theme === 'string' ? findTheme(value.theme) : undefined;
  const scale = value.scale;
  return {
    scale: typeof scale === 'number' && Number.isInteger(scale) && scale >= MIN_SCALE && scale <= MAX_SCALE ? scale : DEFAULT_CONFIG.scale,
    menuMode: value.menuMode === 'overlay' || value.menuMode === 'static' ? value.menuMode : DEFAULT_CONFIG.menuMode,
    inputStyle: value.inputStyle === 'filled' || value.inputStyle === 'outlined' ? value.inputStyle : DEFAULT_CONFIG.inputStyle,
    ripple: typeof value.ripple === 'boolean' ? value.ripple : DEFAULT_CONFIG.ripple,
    theme: theme ? theme.id : DEFAULT_CONFIG.theme,
    // The scheme always follows the theme, whatever storage says.
    colorScheme: theme ? theme.colorScheme : DEFAULT_CONFIG.colorScheme,
  };
}

/** Sets the root font size variable; the CSS combines it with the accessibility font step and clamps to 12-20 px. */
export function applyScale(scale: number, doc: Document = document): void {
  doc.documentElement.style.setProperty('--layout-scale', `${scale}px`);
}

export function loadLayoutConfig(storage: Pick<Storage, 'getItem'>): LayoutConfig {
  try {
    const text = storage.getItem(LAYOUT_CONFIG_KEY);
    return text === null ? DEFAULT_CONFIG : parseLayoutConfig(JSON.parse(text));
  } catch {
    return DEFAULT_CONFIG;
  }
}

export function saveLayoutConfig(storage: Pick<Storage, 'setItem'>, config: LayoutConfig): void {
  try {
    storage.setItem(LAYOUT_CONFIG_KEY, JSON.stringify(config));
  } catch {
    // Storage full or disabled: the layout still works, it just does not persist.
  }
}

/** Footer trigger (spec section 9): 3 clicks within 1200 ms. Returns the clicks still in the window and whether it fired. */
export const GAME_TRIGGER_CLICKS = 3;
export const GAME_TRIGGER_WINDOW_MS = 1200;
export function registerTriggerClick(previous: readonly number[], now: number): { clicks: number[]; fired: boolean } {
  const clicks = [...previous.filter((t) => now - t <= GAME_TRIGGER_WINDOW_MS), now];
  if (clicks.length >= GAME_TRIGGER_CLICKS) return { clicks: [], fired: true };
  return { clicks, fired: false };
}
