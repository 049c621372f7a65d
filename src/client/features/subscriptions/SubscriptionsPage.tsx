import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useLanguage } from '../../i18n';
import { formatNumber, formatTimestamp } from '../../i18n/format';
import { localizeMessage } from '../../i18n/messages';
import { isEmailAddress, type MailStatus, type SendItem, type SubscriptionItem } from '../../../shared/subscriptions';
import { deleteSubscription, failure, fetchMailStatus, fetchSends, fetchSubscriptions, saveEmail, setPaused } from './api';
import { dayKey } from './dates';
import './subscriptions.css';

const when = (iso: string | null): string => (iso ? formatTimestamp(new Date(iso)) : '');

/** One subscription's delivery history, latest first. */
function History({ id }: { id: number }) {
  const { t } = useTranslation();
  const [sends, setSends] = useState<SendItem[] | { error: string } | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    fetchSends(id, ctl.signal).then(setSends, async (err: unknown) => {
      if (!ctl.signal.aborted) setSends({ error: (await failure(err)).message });
    });
    return () => ctl.abort();
  }, [id]);
  if (sends === null) return <p aria-busy="true">…</p>;
  if ('error' in sends) return <p role="alert" className="sub-error">{t('subscriptions.loadFailed', { message: localizeMessage(sends.error) })}</p>;
  if (sends.length === 0) return <p>{t('subscriptions.noSends')}</p>;
  const details = (s: SendItem): string =>
    [s.linked ? t('subscriptions.linked') : '', s.reason ?? '', s.nextAttemptAt && s.status === 'retrying' ? t('subscriptions.retryAt', { when: when(s.nextAttemptAt) }) : '']
      .filter(Boolean)
      .join(' · ');
  return (
    <table className="sub-history" data-testid={`history-${id}`}>
      <caption className="p-hidden-accessible">{t('subscriptions.history')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('subscriptions.dueAt')}</th>
          <th scope="col">{t('subscriptions.statusCol')}</th>
          <th scope="col">{t('subscriptions.attempts')}</th>
          <th scope="col">{t('subscriptions.rows')}</th>
          <th scope="col">{t('subscriptions.details')}</th>
        </tr>
      </thead>
      <tbody>
        {sends.map((s) => (
          <tr key={s.id}>
            <td data-label={t('subscriptions.dueAt')}>{when(s.dueAt)}</td>
            <td data-label={t('subscriptions.statusCol')}>
              <span className={`sub-badge sub-badge-${s.status}`}>{t(`subscriptions.status.${s.status}`)}</span>
            </td>
            <td data-label={t('subscriptions.attempts')}>{s.attempts}</td>
            <td data-label={t('subscriptions.rows')}>{s.rows === null ? '' : formatNumber(s.rows)}</td>
            <td data-label={t('subscriptions.details')}>{details(s) || null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SubscriptionCard({ sub, onChanged, onDeleted }: { sub: SubscriptionItem; onChanged: (s: SubscriptionItem) => void; onDeleted: (id: number) => void }) {
  const { t } = useTranslation();
  const [showHistory, setShowHistory] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = sub.target === 'dashboard' ? t('subscriptions.dashboard') : sub.title;
  const schedule = sub.frequency === 'daily'
    ? t('subscriptions.scheduleDaily', { time: sub.time })
    : t('subscriptions.scheduleWeekly', { day: t(dayKey(sub.weekday ?? 1)), time: sub.time });
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(t('subscriptions.actionFailed', { message: localizeMessage((await failure(err)).message) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="sub-card" data-testid={`subscription-${sub.id}`}>
      <h2>{title}</h2>
      <p className="sub-meta">
        <span>{schedule}</span>
        <span>{sub.format === 'xlsx' ? t('reports.excel') : sub.format.toUpperCase()}</span>
        <span>{t(`subscriptions.langNames.${sub.lang}`)}</span>
        {sub.paused ? <span className="sub-badge">{t('subscriptions.paused')}</span> : <span>{t('subscriptions.next', { when: when(sub.nextDueAt) })}</span>}
        {sub.lastSend && (
          <span>
            {t('subscriptions.lastSend', { status: t(`subscriptions.status.${sub.lastSend.status}`), when: when(sub.lastSend.finishedAt ?? sub.lastSend.dueAt) })}
          </span>
        )}
      </p>
      <div className="sub-actions">
        <Button type="button" size="small" outlined icon={sub.paused ? 'pi pi-play' : 'pi pi-pause'} label={sub.paused ? t('subscriptions.resume') : t('subscriptions.pause')} disabled={busy}
          onClick={() => void act(async () => onChanged(await setPaused(sub.id, !sub.paused)))} />
        <Button type="button" size="small" outlined icon="pi pi-history" label={showHistory ? t('subscriptions.hideHistory') : t('subscriptions.history')} aria-expanded={showHistory}
          onClick={() => setShowHistory((v) => !v)} />
        <Button type="button" size="small" outlined severity="danger" icon="pi pi-trash" label={t('subscriptions.delete')} disabled={busy}
          onClick={() => {
            if (!window.confirm(t('subscriptions.deleteConfirm', { title }))) return;
            void act(async () => {
              await deleteSubscription(sub.id);
              onDeleted(sub.id);
            });
          }} />
      </div>
      {error && <p role="alert" className="sub-error">{error}</p>}
      {showHistory && <History id={sub.id} />}
    </li>
  );
}

/** /layout/uikit/subscriptions: the officer's e-mail address and subscriptions, with pause, delete and history. */
export function SubscriptionsPage() {
  const { t } = useTranslation();
  const ids = useId();
  const [status, setStatus] = useState<MailStatus | null>(null);
  const [subs, setSubs] = useState<SubscriptionItem[] | { error: string } | null>(null);
  const [email, setEmail] = useState('');
  const [emailNote, setEmailNote] = useState<{ error: boolean; text: string } | null>(null);
  const language = useLanguage(); // report titles come from the server in the interface language

  const load = useCallback((signal?: AbortSignal) => {
    fetchMailStatus(signal).then(
      (s) => {
        setStatus(s);
        setEmail(s.email ?? '');
      },
      () => undefined,
    );
    fetchSubscriptions(signal).then(setSubs, async (err: unknown) => {
      if (!signal?.aborted) setSubs({ error: (await failure(err)).message });
    });
  }, []);
  useEffect(() => {
    document.title = `${t('subscriptions.heading')} · ${t('common.portal')}`;
    const ctl = new AbortController();
    load(ctl.signal);
    return () => ctl.abort();
  }, [load, t, language]);

  const save = async () => {
    const value = email.trim();
    if (value !== '' && !isEmailAddress(value)) {
      setEmailNote({ error: true, text: t('subscriptions.emailInvalid') });
      return;
    }
    try {
      const saved = await saveEmail(value === '' ? null : value);
      setEmail(saved.email ?? '');
      setEmailNote({ error: false, text: t('subscriptions.emailSaved') });
    } catch (err) {
      const f = await failure(err);
      setEmailNote({ error: true, text: localizeMessage(f.fields.email ?? f.message) });
    }
  };

  return (
    <div className="sub-page">
      <h1>{t('subscriptions.heading')}</h1>
      <p className="sub-note">{t('subscriptions.intro')}</p>
      {status && !status.enabled && <p role="alert" className="sub-error" data-testid="subscriptions-off">{t('subscriptions.off')}</p>}
      <div className="sub-email">
        <div className="sub-field">
          <label htmlFor={`${ids}-email`}>{t('subscriptions.emailLabel')}</label>
          <InputText id={`${ids}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" invalid={emailNote?.error === true}
            aria-describedby={`${ids}-email-note`} />
          <small id={`${ids}-email-note`} className={emailNote?.error ? 'sub-error' : emailNote ? 'sub-success' : undefined} role={emailNote ? 'status' : undefined}>
            {emailNote?.text ?? t('subscriptions.emailHelp')}
          </small>
        </div>
        <Button type="button" label={t('subscriptions.emailSave')} icon="pi pi-check" onClick={() => void save()} />
      </div>
      {subs === null && <p aria-busy="true">…</p>}
      {subs !== null && 'error' in subs && <p role="alert" className="sub-error">{t('subscriptions.loadFailed', { message: localizeMessage(subs.error) })}</p>}
      {Array.isArray(subs) && subs.length === 0 && <p>{t('subscriptions.none')}</p>}
      {Array.isArray(subs) && subs.length > 0 && (
        <ul className="sub-list">
          {subs.map((s) => (
            <SubscriptionCard
              key={s.id}
              sub={s}
              onChanged={(n) => setSubs((list) => (Array.isArray(list) ? list.map((x) => (x.id === n.id ? n : x)) : list))}
              onDeleted={(id) => setSubs((list) => (Array.isArray(list) ? list.filter((x) => x.id !== id) : list))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

export default SubscriptionsPage;
