import { useTranslation } from 'react-i18next';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { formatMoment } from '../../i18n/format';
import { localizeMessage } from '../../i18n/messages';
import { SAVED_VIEW_LIMITS, type SavedView } from '../../../shared/saved-views';
import { changeView, listViews, removeView } from './api';
import './saved-views.css';

type ListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; views: SavedView[] };

const viewPath = (v: SavedView): string => `/layout/uikit/${encodeURIComponent(v.reportId)}?_view=${encodeURIComponent(v.viewId)}`;

/** /layout/uikit/myviews: the user's views and views shared with them; the owner renames, (un)shares, deletes. */
export function MyViewsPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<ListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ view: SavedView; name: string } | null>(null);
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `${t('views.myViews')} · ${t('common.portal')}`;
  }, [t]);
  useEffect(() => {
    const ctl = new AbortController();
    listViews(ctl.signal).then(
      (views) => setState({ status: 'ok', views }),
      (err: unknown) => {
        if (!ctl.signal.aborted) setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => ctl.abort();
  }, [attempt]);
  const reload = useCallback(() => setAttempt((a) => a + 1), []);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice(await work());
      reload();
    } catch (err) {
      setNotice(t('views.changeFailed', { message: localizeMessage(err instanceof Error ? err.message : String(err)) }));
    } finally {
      setBusy(false);
      setRenaming(null);
      setDeleting(null);
    }
  };

  return (
    <div className="sv-page">
      <h1>{t('views.myViews')}</h1>
      <p className="sv-intro">{t('views.myViewsIntro')}</p>
      {notice ? (
        <p className="sv-notice" role="status">
          {notice}
        </p>
      ) : null}
      {state.status === 'loading' ? <p role="status">{t('views.loading')}</p> : null}
      {state.status === 'error' ? (
        <div role="alert">
          <p>{t('views.loadFailed', { message: localizeMessage(state.message) })}</p>
          <Button type="button" label={t('views.retry')} icon="pi pi-refresh" onClick={reload} />
        </div>
      ) : null}
      {state.status === 'ok' && state.views.length === 0 ? <p>{t('views.none')}</p> : null}
      {state.status === 'ok' && state.views.length > 0 ? (
        <table className="sv-table" data-testid="my-views">
          <thead>
            <tr>
              <th scope="col">{t('views.colReport')}</th>
              <th scope="col">{t('views.colName')}</th>
              <th scope="col">{t('views.colSharing')}</th>
              <th scope="col">{t('views.colOwner')}</th>
              <th scope="col">{t('views.colUpdated')}</th>
              <th scope="col">{t('views.colActions')}</th>
            </tr>
          </thead>
          <tbody>
            {state.views.map((v) => (
              <tr key={v.viewId} data-view-id={v.viewId}>
                <td data-label={t('views.colReport')}>{v.reportTitle ?? <span className="sv-gone">{`${v.reportId} ${t('views.reportGone')}`}</span>}</td>
                <td data-label={t('views.colName')}>
                  <Link to={viewPath(v)}>{v.name}</Link>
                </td>
                <td data-label={t('views.colSharing')}>{v.shared ? t('views.shared') : t('views.private')}</td>
                <td data-label={t('views.colOwner')}>{v.mine ? t('views.you') : v.ownerId}</td>
                <td data-label={t('views.colUpdated')}>{formatMoment(new Date(v.updatedAt))}</td>
                <td data-label={t('views.colActions')}>
                  {v.mine ? (
                    <div className="sv-actions">
                      <Button type="button" size="small" text icon="pi pi-pencil" label={t('views.rename')} aria-label={`${t('views.rename')}: ${v.name}`} onClick={() => setRenaming({ view: v, name: v.name })} />
                      <Button
                        type="button"
                        size="small"
                        text
                        icon={v.shared ? 'pi pi-lock' : 'pi pi-users'}
                        label={v.shared ? t('views.makePrivate') : t('views.makeShared')}
                        disabled={busy}
                        onClick={() => void act(async () => ((await changeView(v.viewId, { shared: !v.shared })).shared ? t('views.shared') : t('views.private')) + `: ${v.name}`)}
                      />
                      <Button type="button" size="small" text icon="pi pi-trash" label={t('views.delete')} aria-label={`${t('views.delete')}: ${v.name}`} onClick={() => setDeleting(v)} />
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      <Dialog
        header={t('views.renameTitle')}
        visible={renaming !== null}
        onHide={() => setRenaming(null)}
        breakpoints={{ '640px': '95vw' }}
        style={{ width: '28rem' }}
        footer={
          <>
            <Button type="button" label={t('views.cancel')} text onClick={() => setRenaming(null)} />
            <Button
              type="button"
              label={t('views.saveButton')}
              icon="pi pi-check"
              loading={busy}
              disabled={!renaming || renaming.name.trim() === ''}
              onClick={() => {
                if (!renaming) return;
                const { view, name } = renaming;
                void act(async () => t('views.renamed', { name: (await changeView(view.viewId, { name: name.trim() })).name }));
              }}
            />
          </>
        }
      >
        <label htmlFor="sv-rename">{t('views.name')}</label>
        <InputText
          id="sv-rename"
          className="w-full"
          value={renaming?.name ?? ''}
          maxLength={SAVED_VIEW_LIMITS.nameMax}
          autoFocus
          onChange={(e) => setRenaming((r) => (r ? { ...r, name: e.target.value } : r))}
        />
      </Dialog>

      <Dialog
        header={t('views.deleteTitle')}
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        breakpoints={{ '640px': '95vw' }}
        style={{ width: '28rem' }}
        footer={
          <>
            <Button type="button" label={t('views.cancel')} text onClick={() => setDeleting(null)} />
            <Button
              type="button"
              label={t('views.delete')}
              severity="danger"
              icon="pi pi-trash"
              loading={busy}
              onClick={() => {
                if (!deleting) return;
                const v = deleting;
                void act(async () => {
                  await removeView(v.viewId);
                  return t('views.deleted', { name: v.name });
                });
              }}
            />
          </>
        }
      >
        <p>{deleting ? t('views.deleteConfirm', { name: deleting.name }) : ''}</p>
      </Dialog>
    </div>
  );
}

export default MyViewsPage;
