import { Sidebar } from 'primereact/sidebar';
import { useTranslation } from 'react-i18next';
import { RadioButton } from 'primereact/radiobutton';
import { Button } from 'primereact/button';
import { useLayout } from './LayoutContext';
import { MAX_SCALE, MIN_SCALE, SCALES, type InputStyle, type MenuMode } from './layout-state';
import { THEME_GROUPS } from './themes';

export interface AppConfigProps {
  /** Minimal mode (e.g. outside the shell): only scale and themes. */
  minimal?: boolean;
}

const MENU_MODES: { value: MenuMode; label: 'settings.static' | 'settings.overlay' }[] = [
  { value: 'static', label: 'settings.static' },
  { value: 'overlay', label: 'settings.overlay' },
];
const INPUT_STYLES: { value: InputStyle; label: 'settings.outlined' | 'settings.filled' }[] = [
  { value: 'outlined', label: 'settings.outlined' },
  { value: 'filled', label: 'settings.filled' },
];

/** The settings panel on the right: scale, menu mode, input style, ripple and every theme. */
export function AppConfig({ minimal = false }: AppConfigProps) {
  const { t } = useTranslation();
  const { state, dispatch, changeTheme, themeLoading, themeError } = useLayout();
  const { config, flags } = state;

  return (
    <Sidebar
      id="layout-config"
      visible={flags.configSidebarVisible}
      onHide={() => dispatch({ type: 'configSidebarClosed' })}
      position="right"
      className="layout-config-sidebar"
      ariaCloseLabel={t('settings.close')}
      header={<h2 className="layout-config-title">{t('settings.title')}</h2>}
      aria-label={t('settings.title')}
    >
      <section aria-labelledby="cfg-scale">
        <h3 id="cfg-scale">{t('settings.scale')}</h3>
        <div className="layout-config-scale">
          <Button
            icon="pi pi-minus"
            type="button"
            rounded
            text
            aria-label={t('settings.decreaseScale')}
            disabled={config.scale <= MIN_SCALE}
            onClick={() => dispatch({ type: 'scaleStepped', by: -1 })}
          />
          <div className="layout-config-scale-dots" aria-hidden="true">
            {SCALES.map((s) => (
              <i key={s} className={`pi pi-circle-fill${s === config.scale ? ' active' : ''}`} />
            ))}
          </div>
          <output aria-live="polite" className="layout-config-scale-value">
            {config.scale}px
          </output>
          <Button
            icon="pi pi-plus"
            type="button"
            rounded
            text
            aria-label={t('settings.increaseScale')}
            disabled={config.scale >= MAX_SCALE}
            onClick={() => dispatch({ type: 'scaleStepped', by: 1 })}
          />
        </div>
      </section>

      {!minimal && (
        <>
          <fieldset className="layout-config-group">
            <legend>{t('settings.menuType')}</legend>
            {MENU_MODES.map((m) => (
              <div key={m.value} className="layout-config-radio">
                <RadioButton
                  inputId={`menu-mode-${m.value}`}
                  name="menuMode"
                  value={m.value}
                  checked={config.menuMode === m.value}
                  onChange={() => dispatch({ type: 'menuModeChanged', menuMode: m.value })}
                />
                <label htmlFor={`menu-mode-${m.value}`}>{t(m.label)}</label>
              </div>
            ))}
          </fieldset>
          <fieldset className="layout-config-group">
            <legend>{t('settings.inputStyle')}</legend>
            {INPUT_STYLES.map((s) => (
              <div key={s.value} className="layout-config-radio">
                <RadioButton
                  inputId={`input-style-${s.value}`}
                  name="inputStyle"
                  value={s.value}
                  checked={config.inputStyle === s.value}
                  onChange={() => dispatch({ type: 'inputStyleChanged', inputStyle: s.value })}
                />
                <label htmlFor={`input-style-${s.value}`}>{t(s.label)}</label>
              </div>
            ))}
          </fieldset>
          <div className="layout-config-group layout-config-switch">
            <label htmlFor="ripple-switch">
              {t('settings.ripple')}
            </label>
            <input
              id="ripple-switch"
              type="checkbox"
              role="switch"
              className="layout-config-toggle"
              checked={config.ripple}
              onChange={(e) => dispatch({ type: 'rippleChanged', ripple: e.target.checked })}
            />
          </div>
        </>
      )}

      {themeError && (
        <p className="layout-config-error" role="alert">
          {themeError}
        </p>
      )}
      {THEME_GROUPS.map((g) => (
        <section key={g.label} className="layout-config-themes" aria-label={t('settings.themesOf', { group: g.label })}>
          <h3>{g.label}</h3>
          <div className="layout-config-theme-grid">
            {g.themes.map((t) => (
              <button
                key={t.id}
                type="button"
                className={`p-link layout-config-theme${config.theme === t.id ? ' active' : ''}`}
                aria-pressed={config.theme === t.id}
                aria-busy={themeLoading === t.id}
                data-theme-id={t.id}
                onClick={() => changeTheme(t.id)}
              >
                {/* The theme's own colours: its card surface and its primary colour, half and half. */}
                <span
                  className="layout-config-swatch"
                  aria-hidden="true"
                  style={{ background: `linear-gradient(135deg, ${t.surface} 50%, ${t.primary} 50%)` }}
                />
                {t.label}
              </button>
            ))}
          </div>
        </section>
      ))}
    </Sidebar>
  );
}
