import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useLanguage } from '../../i18n';
import { formatTimestamp } from '../../i18n/format';
import { localizeMessage } from '../../i18n/messages';
import {
  isEmailAddress, RELATIVE_DATES, type MailStatus, type SubscriptionFormat, type SubscriptionFrequency, type SubscriptionInput,
} from '../../../shared/subscriptions';
import { createSubscription, failure, fetchMailStatus, saveEmail } from './api';
import { dayKey, RELATIVE_DATE_KEYS, relativeChoice, todayIst } from './dates';
import './subscriptions.css';

export interface SubscribeButtonProps {
  target: 'report' | 'dashboard';
  /** Report subscriptions: the report, its tab, the filter on the page now, its visible columns and order. */
  reportId?: string;
  tab?: string;
  filter?: Record<string, unknown>;
  /** The report's filter schema: its date fields may be made relative. */
  filterSchema?: Record<string, unknown>;
  columns?: string[];
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  formats?: readonly SubscriptionFormat[];
}

/** The filter's date fields (format 'date') with their titles. */
function dateFields(schema: Record<string, unknown> | undefined, filter: Record<string, unknown>): { key: string; title: string; value: string }[] {
  const props = (schema?.properties ?? {}) as Record<string, { format?: unknown; title?: unknown }>;
  return Object.entries(props).flatMap(([key, p]) => {
    const v = filter[key];
    return p.format === 'date' && typeof v === 'string' ? [{ key, title: typeof p.title === 'string' ? p.title : key, value: v }] : [];
  });
}

/** "E-mail me this": a dialog that subscribes the officer to the report as it is on the page (or to the dashboard). */
export function SubscribeButton(props: SubscribeButtonProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<MailStatus | { error: string } | null>(null);
  const formats = props.target === 'dashboard' ? (['pdf'] as const) : (props.formats ?? ['csv', 'xlsx', 'pdf']);
  const filter = useMemo(() => props.filter ?? {}, [props.filter]);
  const dates = useMemo(() => dateFields(props.filterSchema, filter), [props.filterSchema, filter]);

  const [frequency, setFrequency] = useState<SubscriptionFrequency>('daily');
  const [weekday, setWeekday] = useState(1);
  const [time, setTime] = useState('07:00');
  const [format, setFormat] = useState<SubscriptionFormat>(formats.includes('xlsx') ? 'xlsx' : (formats[0] ?? 'pdf'));
  const [lang, setLang] = useState<'en' | 'hi'>(language);
  const [dateChoice, setDateChoice] = useState<Record<string, string>>({});
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ severity: 'error' | 'success'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!open) return;
    const ctl = new AbortController();
    setStatus(null);
    setMessage(null);
    setFieldErrors({});
    setLang(language);
    const today = todayIst();
    setDateChoice(Object.fromEntries(dates.map((d) => [d.key, relativeChoice(d.value, today)])));
    fetchMailStatus(ctl.signal).then(
      (s) => setStatus(s),
      async (err: unknown) => {
        if (!ctl.signal.aborted) setStatus({ error: (await failure(err)).message });
      },
    );
    return () => ctl.abort();
  }, [open, dates, language]);

  const ready = status !== null && !('error' in status);
  const enabled = ready && status.enabled;
  const needsEmail = ready && status.enabled && !status.email;

  const submitEmail = async (): Promise<boolean> => {
    const value = email.trim();
    if (!isEmailAddress(value)) {
      setFieldErrors({ email: t('subscriptions.emailInvalid') });
      return false;
    }
    try {
      const saved = await saveEmail(value);
      if (ready) setStatus({ ...status, email: saved.email });
      return true;
    } catch (err) {
      const f = await failure(err);
      setFieldErrors(f.fields.email ? { email: localizeMessage(f.fields.email) } : {});
      setMessage({ severity: 'error', text: localizeMessage(f.message) });
      return false;
    }
  };

  const subscribe = async () => {
    setBusy(true);
    setMessage(null);
    setFieldErrors({});
    try {
      if (needsEmail && !(await submitEmail())) return;
      const filters = { ...filter };
      for (const d of dates) {
        const c = dateChoice[d.key];
        if (c && c !== 'fixed') filters[d.key] = c;
      }
      const input: SubscriptionInput = {
        target: props.target,
        format,
        lang,
        frequency,
        time,
        ...(frequency === 'weekly' ? { weekday } : {}),
        ...(props.target === 'report'
          ? {
              ...(props.reportId ? { reportId: props.reportId } : {}),
              ...(props.tab ? { tab: props.tab } : {}),
              filters,
              ...(props.columns && props.columns.length > 0 ? { columns: props.columns } : {}),
              ...(props.sortBy ? { sortBy: props.sortBy, sortDir: props.sortDir ?? 'asc' } : {}),
            }
          : {}),
      };
      const created = await createSubscription(input);
      setMessage({ severity: 'success', text: t('subscriptions.subscribed', { when: formatTimestamp(new Date(created.nextDueAt)) }) });
    } catch (err) {
      const f = await failure(err);
      setFieldErrors(Object.fromEntries(Object.entries(f.fields).map(([k, v]) => [k, localizeMessage(v)])));
      setMessage({ severity: 'error', text: t('subscriptions.failed', { message: localizeMessage(f.message) }) });
    } finally {
      setBusy(false);
    }
  };

  const done = message?.severity === 'success';
  const label = props.target === 'dashboard' ? t('subscriptions.buttonDashboard') : t('subscriptions.button');
  const dayOptions = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(dayKey(d)) }));
  const footer = (
    <div className="sub-dialog-footer">
      <Button type="button" label={done ? t('subscriptions.close') : t('subscriptions.cancel')} outlined onClick={() => setOpen(false)} />
      {enabled && !done && <Button type="button" label={t('subscriptions.subscribe')} icon="pi pi-envelope" loading={busy} onClick={() => void subscribe()} />}
    </div>
  );

  return (
    <>
      <Button type="button" size="small" outlined icon="pi pi-envelope" label={label} onClick={() => setOpen(true)} data-testid="subscribe-button" />
      <Dialog
        header={props.target === 'dashboard' ? t('subscriptions.dialogTitleDashboard') : t('subscriptions.dialogTitle')}
        visible={open}
        onHide={() => setOpen(false)}
        footer={footer}
        className="sub-dialog"
        breakpoints={{ '640px': '96vw' }}
        style={{ width: '34rem' }}
      >
        {status === null && <p aria-busy="true">…</p>}
        {status !== null && 'error' in status && <p role="alert" className="sub-error">{t('subscriptions.statusFailed', { message: localizeMessage(status.error) })}</p>}
        {ready && !status.enabled && <p role="alert" className="sub-error" data-testid="subscriptions-off">{t('subscriptions.off')}</p>}
        {enabled && !done && (
          <div className="sub-form">
            <p className="sub-note">{props.target === 'dashboard' ? t('subscriptions.dashboardNote') : t('subscriptions.filtersNote')}</p>
            {needsEmail && (
              <div className="sub-field">
                <label htmlFor={`${ids}-email`}>{t('subscriptions.emailLabel')}</label>
                <InputText id={`${ids}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby={`${ids}-email-help`} invalid={Boolean(fieldErrors.email)} autoComplete="email" />
                <small id={`${ids}-email-help`} className={fieldErrors.email ? 'sub-error' : undefined}>{fieldErrors.email ?? t('subscriptions.emailNeeded')}</small>
              </div>
            )}
            <div className="sub-row">
              <div className="sub-field">
                <label htmlFor={`${ids}-freq`}>{t('subscriptions.frequency')}</label>
                <Dropdown inputId={`${ids}-freq`} value={frequency} onChange={(e) => setFrequency(e.value as SubscriptionFrequency)}
                  options={[{ value: 'daily', label: t('subscriptions.daily') }, { value: 'weekly', label: t('subscriptions.weekly') }]} />
              </div>
              {frequency === 'weekly' && (
                <div className="sub-field">
                  <label htmlFor={`${ids}-day`}>{t('subscriptions.weekday')}</label>
                  <Dropdown inputId={`${ids}-day`} value={weekday} onChange={(e) => setWeekday(Number(e.value))} options={dayOptions} />
                </div>
              )}
              <div className="sub-field">
                <label htmlFor={`${ids}-time`}>{t('subscriptions.time')}</label>
                <InputText id={`${ids}-time`} type="time" value={time} onChange={(e) => setTime(e.target.value)} invalid={Boolean(fieldErrors.time)} required />
                {fieldErrors.time && <small className="sub-error">{fieldErrors.time}</small>}
              </div>
            </div>
            <div className="sub-row">
              <div className="sub-field">
                <label htmlFor={`${ids}-format`}>{t('subscriptions.format')}</label>
                <Dropdown inputId={`${ids}-format`} value={format} onChange={(e) => setFormat(e.value as SubscriptionFormat)}
                  options={formats.map((f) => ({ value: f, label: f === 'xlsx' ? t('reports.excel') : f.toUpperCase() }))} />
              </div>
              <div className="sub-field">
                <label htmlFor={`${ids}-lang`}>{t('subscriptions.language')}</label>
                <Dropdown inputId={`${ids}-lang`} value={lang} onChange={(e) => setLang(e.value as 'en' | 'hi')}
                  options={[{ value: 'en', label: t('subscriptions.langNames.en') }, { value: 'hi', label: t('subscriptions.langNames.hi') }]} />
              </div>
            </div>
            {dates.length > 0 && (
              <fieldset className="sub-dates">
                <legend>{t('subscriptions.dates')}</legend>
                {dates.map((d) => (
                  <div className="sub-field" key={d.key}>
                    <label htmlFor={`${ids}-${d.key}`}>{d.title}</label>
                    <Dropdown
                      inputId={`${ids}-${d.key}`}
                      value={dateChoice[d.key] ?? 'fixed'}
                      onChange={(e) => setDateChoice((c) => ({ ...c, [d.key]: String(e.value) }))}
                      options={[
                        { value: 'fixed', label: t('subscriptions.dateFixed', { date: d.value.split('-').reverse().join('/') }) },
                        ...RELATIVE_DATES.map((r) => ({ value: r, label: t(RELATIVE_DATE_KEYS[r]) })),
                      ]}
                    />
                    {fieldErrors[d.key] && <small className="sub-error">{fieldErrors[d.key]}</small>}
                  </div>
                ))}
              </fieldset>
            )}
          </div>
        )}
        {message && (
          <p role={message.severity === 'error' ? 'alert' : 'status'} className={message.severity === 'error' ? 'sub-error' : 'sub-success'} data-testid="subscribe-message">
            {message.text}
          </p>
        )}
        {done && (
          <p>
            <Link to="/layout/uikit/subscriptions" onClick={() => setOpen(false)}>{t('subscriptions.manage')}</Link>
          </p>
        )}
      </Dialog>
    </>
  );
}
