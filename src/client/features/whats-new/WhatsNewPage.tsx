import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import { localizeMessage } from '../../i18n/messages';
import { useEffect, useState } from 'react';
import { HTTPError } from 'ky';
import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import { api } from '../../lib/api';
import { formatDate } from '../../../shared/column-types';
import type { Release, ReleaseNotes } from '../../../shared/release-notes';
import './whats-new.css';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; releases: Release[] };

async function message(err: unknown): Promise<string> {
  if (err instanceof HTTPError) {
    try {
      const b = (await err.response.clone().json()) as { message?: unknown };
      if (typeof b.message === 'string') return b.message;
    } catch {
      /* not JSON */
    }
    return `The server answered ${err.response.status}.`;
  }
  return 'The server cannot be reached. Check your connection.';
}

/** Changes grouped by area, in the order the areas first appear; in Hindi where the entry has it. */
function byArea(r: Release, hindi: boolean): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const c of r.changes) {
    const { area, text } = hindi && c.hi ? c.hi : c;
    groups.set(area, [...(groups.get(area) ?? []), text]);
  }
  return [...groups.entries()];
}

/** /layout/uikit/whatsnew: release notes from docs/release-notes.json, newest first. */
export function WhatsNewPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const language = useLanguage();
  useEffect(() => {
    const ctl = new AbortController();
    setState({ status: 'loading' });
    api.get('/api/meta/whatsnew', { signal: ctl.signal }).json<ReleaseNotes>().then(
      (n) => setState({ status: 'ok', releases: n.releases }),
      async (err: unknown) => {
        if (!ctl.signal.aborted) setState({ status: 'error', message: await message(err) });
      },
    );
    return () => ctl.abort();
  }, [attempt]);

  return (
    <div className="wn-page">
      <h1 className="wn-heading">{t('whatsnew.heading')}</h1>
      {state.status === 'loading' ? (
        <Skeleton height="10rem" />
      ) : state.status === 'error' ? (
        <div role="alert" className="wn-error">
          <span>{t('whatsnew.loadFailed', { message: localizeMessage(state.message) })}</span>
          <Button type="button" label={t('common.retry')} icon="pi pi-refresh" text onClick={() => setAttempt((a) => a + 1)} />
        </div>
      ) : (
        state.releases.map((r, i) => (
          <article key={r.version} className="wn-release" aria-labelledby={`wn-${r.version}`}>
            <header className="wn-release-head">
              <h2 id={`wn-${r.version}`}>
                {r.version} <span className="wn-name">{r.name}</span>
              </h2>
              {i === 0 ? <Tag value={t('whatsnew.current')} severity="success" /> : null}
              <time dateTime={r.date} className="wn-date">
                {formatDate(r.date)}
              </time>
            </header>
            <p className="wn-summary">{language === 'hi' && r.hi ? r.hi.summary : r.summary}</p>
            {byArea(r, language === 'hi').map(([area, texts]) => (
              <section key={area} className="wn-area">
                <h3>{area}</h3>
                <ul>
                  {texts.map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
              </section>
            ))}
          </article>
        ))
      )}
    </div>
  );
}
