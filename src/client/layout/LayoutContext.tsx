import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useState,
  useSyncExternalStore,
  type Dispatch,
  type ReactNode,
} from 'react';
import { currentLanguage, t, useLanguage } from '../i18n';
import './prime-locale';
import { PrimeReactContext, PrimeReactProvider } from 'primereact/api';
import {
  applyScale,
  DESKTOP_MIN_WIDTH,
  initialLayoutState,
  isScrollBlocked,
  layoutReducer,
  loadLayoutConfig,
  saveLayoutConfig,
  type LayoutAction,
  type LayoutState,
} from './layout-state';
import { findTheme } from './themes';
import { applyColorScheme, swapTheme } from './theme-link';

export interface LayoutContextValue {
  state: LayoutState;
  dispatch: Dispatch<LayoutAction>;
  /** Width above 991 px. */
  desktop: boolean;
  /** Loads a theme and applies it once its stylesheet has loaded; on failure keeps the old theme and sets themeError. */
  changeTheme(id: string): void;
  themeLoading: string | null;
  themeError: string | null;
}

const LayoutContext = createContext<LayoutContextValue | null>(null);

export function useLayout(): LayoutContextValue {
  const v = useContext(LayoutContext);
  if (!v) throw new Error('useLayout outside LayoutProvider');
  return v;
}

const desktopQuery = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;
function subscribeDesktop(onChange: () => void): () => void {
  const mq = window.matchMedia(desktopQuery);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
const isDesktop = (): boolean => window.matchMedia(desktopQuery).matches;

function LayoutStateProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(layoutReducer, undefined, () => initialLayoutState(loadLayoutConfig(localStorage)));
  const desktop = useSyncExternalStore(subscribeDesktop, isDesktop, () => true);
  const [themeLoading, setThemeLoading] = useState<string | null>(null);
  const [themeError, setThemeError] = useState<string | null>(null);
  const prime = useContext(PrimeReactContext);
  const { config } = state;

  useEffect(() => saveLayoutConfig(localStorage, config), [config]);
  useEffect(() => applyScale(config.scale), [config.scale]);
  useEffect(() => applyColorScheme(config.colorScheme), [config.colorScheme]);
  useEffect(() => {
    prime.setRipple?.(config.ripple);
    prime.setInputStyle?.(config.inputStyle);
  }, [prime, config.ripple, config.inputStyle]);
  // PrimeReact's components take their words (pager, date picker) from the provider's locale before the global one.
  const language = useLanguage();
  useEffect(() => prime.setLocale?.(language), [prime, language]);

  const blocked = isScrollBlocked(state, desktop);
  useEffect(() => {
    document.body.classList.toggle('blocked-scroll', blocked);
    return () => document.body.classList.remove('blocked-scroll');
  }, [blocked]);

  const changeTheme = useCallback((id: string) => {
    const theme = findTheme(id);
    if (!theme) return;
    setThemeLoading(id);
    setThemeError(null);
    swapTheme(id).then(
      () => {
        setThemeLoading((cur) => (cur === id ? null : cur));
        dispatch({ type: 'themeApplied', theme: id, colorScheme: theme.colorScheme });
      },
      () => {
        setThemeLoading((cur) => (cur === id ? null : cur));
        setThemeError(t('shell.themeFailed', { theme: theme.label }));
      },
    );
  }, []);

  const value = useMemo(
    () => ({ state, dispatch, desktop, changeTheme, themeLoading, themeError }),
    [state, desktop, changeTheme, themeLoading, themeError],
  );
  return <LayoutContext.Provider value={value}>{children}</LayoutContext.Provider>;
}

/** Layout state (named actions), persisted configuration, theme, scale and PrimeReact options for the shell. */
export function LayoutProvider({ children }: { children: ReactNode }) {
  const initial = loadLayoutConfig(localStorage);
  return (
    <PrimeReactProvider value={{ ripple: initial.ripple, inputStyle: initial.inputStyle, locale: currentLanguage() }}>
      <LayoutStateProvider>{children}</LayoutStateProvider>
    </PrimeReactProvider>
  );
}
