import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'primeicons/primeicons.css';
import './app/global.css';
// The accessibility settings apply to every page, the login screen included.
import './features/accessibility/accessibility.css';
import { App } from './app/App';
import { applyStoredA11y } from './features/accessibility/a11y-settings';
import { applyScale, DEFAULT_CONFIG, loadLayoutConfig } from './layout/layout-state';
import { bootTheme } from './layout/theme-link';
import { bootLanguage } from './i18n';

// Before the first render: accessibility flags, scale and the stored theme (no inline script: strict CSP). index.html
// links the default theme, so the usual first paint waits for no script-made request; another stored theme replaces it.
applyStoredA11y();
const config = loadLayoutConfig(localStorage);
applyScale(config.scale);

function render(): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The remembered language loads with the theme, so a Hindi user never sees an English first paint.
void Promise.allSettled([bootTheme(config.theme, DEFAULT_CONFIG.theme), bootLanguage()]).finally(render);
