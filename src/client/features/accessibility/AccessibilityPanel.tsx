import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from 'primereact/dialog';
import './accessibility-panel.css';
import {
  applyA11y,
  DEFAULT_A11Y,
  loadA11y,
  saveA11y,
  stepDown,
  stepUp,
  type A11yFlag,
  type A11ySettings,
} from './a11y-settings';

type A11yKey = 'dark' | 'invert' | 'saturation' | 'highlightLinks' | 'textSpacing' | 'lineHeight';
interface Toggle {
  flag: A11yFlag;
  label: A11yKey;
  icon: string;
}

const COLOR: Toggle[] = [
  { flag: 'dark', label: 'dark', icon: 'pi pi-moon' },
  { flag: 'invert', label: 'invert', icon: 'pi pi-sun' },
  { flag: 'saturation', label: 'saturation', icon: 'pi pi-palette' },
  { flag: 'highlightLinks', label: 'highlightLinks', icon: 'pi pi-link' },
];
const TEXT: Toggle[] = [
  { flag: 'textSpacing', label: 'textSpacing', icon: 'pi pi-arrows-h' },
  { flag: 'lineHeight', label: 'lineHeight', icon: 'pi pi-arrows-v' },
];

function TileButton(props: { label: string; icon?: string; text?: string; pressed?: boolean; disabled?: boolean; onClick(): void }) {
  return (
    <button
      type="button"
      className="a11y-tile"
      aria-pressed={props.pressed}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.icon ? <i className={`a11y-tile-icon ${props.icon}`} aria-hidden="true" /> : <span className="a11y-tile-icon">{props.text}</span>}
      <span>{props.label}</span>
    </button>
  );
}

/** The top bar's accessibility panel: colour contrast, text size and other aids, kept in local storage. */
export function AccessibilityPanel() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<A11ySettings>(() => loadA11y(localStorage));
  const [open, setOpen] = useState(false);
  const [readerInfo, setReaderInfo] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    applyA11y(settings);
    saveA11y(localStorage, settings);
  }, [settings]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent): void => {
      const t = e.target;
      if (!(t instanceof Node) || panelRef.current?.contains(t) || buttonRef.current?.contains(t)) return;
      if (t instanceof Element && t.closest('.p-dialog-mask')) return; // the Screen Reader dialog belongs to the panel
      setOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !readerInfo) {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, readerInfo]);

  const toggle = (flag: A11yFlag) => setSettings((s) => ({ ...s, [flag]: !s[flag] }));

  return (
    <div className="a11y-container">
      <button
        ref={buttonRef}
        type="button"
        className="p-link layout-topbar-button"
        aria-label={t('a11y.button')}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <i className="pi pi-eye" aria-hidden="true" />
      </button>
      {open && (
        <div id={panelId} ref={panelRef} className="a11y-panel layout-profile-menu" role="group" aria-label={t('a11y.options')}>
          <h3 id={`${panelId}-c`}>{t('a11y.colorContrast')}</h3>
          <div className="a11y-grid" role="group" aria-labelledby={`${panelId}-c`}>
            {COLOR.map((x) => (
              <TileButton key={x.flag} label={t(`a11y.${x.label}`)} icon={x.icon} pressed={settings[x.flag]} onClick={() => toggle(x.flag)} />
            ))}
          </div>
          <h3 id={`${panelId}-t`}>{t('a11y.textSize')}</h3>
          <div className="a11y-grid" role="group" aria-labelledby={`${panelId}-t`}>
            <TileButton
              label={t('a11y.larger')}
              text="A+"
              disabled={settings.fontStep === 2}
              onClick={() => setSettings((s) => ({ ...s, fontStep: stepUp(s.fontStep) }))}
            />
            <TileButton
              label={t('a11y.smaller')}
              text="A-"
              disabled={settings.fontStep === 0}
              onClick={() => setSettings((s) => ({ ...s, fontStep: stepDown(s.fontStep) }))}
            />
            <TileButton
              label={t('a11y.normal')}
              text="A"
              pressed={settings.fontStep === 1}
              onClick={() => setSettings((s) => ({ ...s, fontStep: 1 }))}
            />
            {TEXT.map((x) => (
              <TileButton key={x.flag} label={t(`a11y.${x.label}`)} icon={x.icon} pressed={settings[x.flag]} onClick={() => toggle(x.flag)} />
            ))}
          </div>
          <h3 id={`${panelId}-o`}>{t('a11y.others')}</h3>
          <div className="a11y-grid" role="group" aria-labelledby={`${panelId}-o`}>
            <TileButton label={t('a11y.screenReader')} icon="pi pi-volume-up" onClick={() => setReaderInfo(true)} />
            <TileButton label={t('a11y.dyslexia')} icon="pi pi-book" pressed={settings.dyslexicFont} onClick={() => toggle('dyslexicFont')} />
            <TileButton label={t('a11y.cursor')} icon="pi pi-arrow-up-left" pressed={settings.cursor} onClick={() => toggle('cursor')} />
          </div>
          <button type="button" className="p-button p-button-sm p-button-outlined a11y-reset" onClick={() => setSettings(DEFAULT_A11Y)}>
            {t('a11y.reset')}
          </button>
        </div>
      )}
      <Dialog header={t('a11y.screenReader')} visible={readerInfo} onHide={() => setReaderInfo(false)} style={{ width: 'min(32rem, 92vw)' }} modal>
        <p>{t('a11y.readerText1')}</p>
        <p>{t('a11y.readerText2')}</p>
      </Dialog>
    </div>
  );
}
