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

void bootTheme(config.theme, DEFAULT_CONFIG.theme).finally(render);
