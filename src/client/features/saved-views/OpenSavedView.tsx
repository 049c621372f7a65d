import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { localizeMessage } from '../../i18n/messages';
import type { SavedView } from '../../../shared/saved-views';
import { getView, ViewApiError } from './api';
import './saved-views.css';

type OpenState = { status: 'loading' } | { status: 'problem'; view: SavedView | null; message?: string };

/**
 * Opens a view link (?_view=<id>): loads the view and hands a good one to `onOpen` (which puts its state on the report
 * page); a view whose report is gone or whose filter the report no longer accepts is explained here instead, with a
 * way on, never opened half-applied.
 */
export function OpenSavedView({ viewId, reportId, onOpen }: { viewId: string; reportId: string; onOpen: (view: SavedView) => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<OpenState>({ status: 'loading' });
  useEffect(() => {
    const ctl = new AbortController();
    getView(viewId, ctl.signal).then(
      (view) => {
        if (view.problem || view.reportId !== reportId) setState({ status: 'problem', view });
        else onOpen(view);
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        const notFound = err instanceof ViewApiError && (err.status === 404 || err.status === 400);
        setState({ status: 'problem', view: null, ...(notFound ? {} : { message: localizeMessage(err instanceof Error ? err.message : String(err)) }) });
      },
    );
    return () => ctl.abort();
  }, [viewId, reportId, onOpen]);

  if (state.status === 'loading') {
    return (
      <div className="sv-problem" role="status">
        {t('views.opening')}
      </div>
    );
  }
  const { view } = state;
  const problem = view?.problem ?? null;
  const report = view?.reportTitle ?? view?.reportId ?? reportId;
  return (
    <div className="sv-problem" role="alert" data-testid="view-problem">
      <h1>{t('views.problemTitle')}</h1>
      {state.message ? <p>{state.message}</p> : null}
      {!view && !state.message ? <p>{t('views.problemNotFound')}</p> : null}
      {view && problem?.code === 'report_missing' ? <p>{t('views.problemMissing', { report, name: view.name })}</p> : null}
      {view && problem?.code === 'report_unavailable' ? <p>{t('views.problemUnavailable', { name: view.name, reason: problem.reason })}</p> : null}
      {view && problem?.code === 'filter_invalid' ? (
        <>
          <p>{t('views.problemFilter', { report, name: view.name })}</p>
          <ul>
            {problem.fields.map((f, i) => (
              <li key={`${f.field}-${i}`}>
                <code>{f.field}</code>: {f.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="sv-problem-actions">
        {problem?.code !== 'report_missing' ? <Link to={`/layout/uikit/${encodeURIComponent(view?.reportId ?? reportId)}`}>{t('views.openReport')}</Link> : null}
        <Link to="/layout/uikit/myviews">{t('views.toMyViews')}</Link>
      </div>
    </div>
  );
}
