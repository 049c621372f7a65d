import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './layout/layout.css';
import { App } from './app/App';
import { applyStoredA11y } from './features/accessibility/a11y-settings';
import { applyScale } from './layout/LayoutContext';
import { DEFAULT_CONFIG, loadLayoutConfig } from './layout/layout-state';
import { bootTheme } from './layout/theme-link';

// Before the first render: accessibility flags, scale and the stored theme (no inline script: strict CSP).
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
