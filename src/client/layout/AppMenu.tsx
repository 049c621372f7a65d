import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../i18n';
import { parseMenuDocument, type MenuDocument } from '../../shared/menu';
import { AppMenuItem } from './AppMenuItem';
import { useShellSession } from './shell-session';

type MenuLoad = { status: 'loading' } | { status: 'ready'; menu: MenuDocument } | { status: 'failed' };

/**
 * How often an open menu asks for changes (menu.json edited, a report broken or repaired). The server answers
 * an unchanged menu with 304 (ETag, revalidated by the browser's HTTP cache), so a poll costs little.
 */
export const MENU_POLL_MS = 3000;

/** The side menu, generated from menu.json as served by GET /api/meta/menu, kept current while open. */
export function AppMenu() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { getJson, logout } = useShellSession();
  const [load, setLoad] = useState<MenuLoad>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const baseId = useId();
  const shown = useRef('');

  // Polling, not server-sent events: it goes through the API client (bearer token, refresh) like every call,
  // and works whichever server process behind the port answers. A failed poll keeps the menu on screen.
  useEffect(() => {
    if (load.status !== 'ready') return;
    let ctrl: AbortController | undefined;
    const poll = (): void => {
      if (document.visibilityState === 'hidden') return;
      ctrl?.abort();
      const mine = new AbortController();
      ctrl = mine;
      getJson('/api/meta/menu', mine.signal).then(
        (body) => {
          const text = JSON.stringify(body);
          if (mine.signal.aborted || text === shown.current) return;
          const menu = parseMenuDocument(body);
          if (!menu) return;
          shown.current = text;
          setLoad({ status: 'ready', menu });
        },
        () => undefined,
      );
    };
    const timer = window.setInterval(poll, MENU_POLL_MS);
    document.addEventListener('visibilitychange', poll);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
      ctrl?.abort();
    };
  }, [getJson, load.status, language]);

  useEffect(() => {
    const ctrl = new AbortController();
    getJson('/api/meta/menu', ctrl.signal).then(
      (body) => {
        const menu = parseMenuDocument(body);
        shown.current = JSON.stringify(body);
        setLoad(menu ? { status: 'ready', menu } : { status: 'failed' });
      },
      () => {
        if (!ctrl.signal.aborted) setLoad({ status: 'failed' });
      },
    );
    return () => ctrl.abort();
  }, [getJson, attempt, language]); // the server names sections and items in the request's language

  const onCommand = useCallback(
    (command: 'logout') => {
      if (command === 'logout') logout();
    },
    [logout],
  );

  if (load.status === 'loading') return <p className="layout-menu-status" role="status">{t('shell.menuLoading')}</p>;
  if (load.status === 'failed') {
    return (
      <div className="layout-menu-status" role="alert">
        <p>{t('shell.menuFailed')}</p>
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          onClick={() => {
            setLoad({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return (
    <ul className="layout-menu">
      {load.menu.entries.map((entry, i) =>
        entry.type === 'section' ? (
          <li key={`s${i}`} className="layout-root-menuitem">
            <div className="layout-menuitem-root-text" id={`${baseId}-${i}`}>
              {entry.label}
            </div>
            <ul aria-labelledby={`${baseId}-${i}`}>
              {entry.items.map((item, j) => (
                <AppMenuItem key={item.type === 'item' ? item.path : `c${j}`} entry={item} onCommand={onCommand} />
              ))}
            </ul>
          </li>
        ) : (
          <AppMenuItem key={entry.type === 'item' ? entry.path : `c${i}`} entry={entry} onCommand={onCommand} />
        ),
      )}
    </ul>
  );
}
