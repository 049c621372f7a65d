import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Checkbox } from 'primereact/checkbox';
import { localizeMessage } from '../../i18n/messages';
import { SAVED_VIEW_LIMITS, type SavedView, type SavedViewState } from '../../../shared/saved-views';
import { createView, viewLink } from './api';
import './saved-views.css';

export interface SaveViewButtonProps {
  reportId: string;
  /** The page's state now, read when the dialog saves. */
  capture: () => SavedViewState;
}

/** "Save view": a name and private/shared, then the link that opens it. */
export function SaveViewButton({ reportId, capture }: SaveViewButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<SavedView | null>(null);
  const [copied, setCopied] = useState(false);

  const reset = () => {
    setName('');
    setShared(false);
    setError(null);
    setSaved(null);
    setCopied(false);
  };
  const submit = async () => {
    if (name.trim() === '') {
      setError(t('views.nameRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setSaved(await createView({ reportId, name: name.trim(), shared, state: capture() }));
    } catch (err) {
      setError(localizeMessage(err instanceof Error ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  };
  const link = saved ? viewLink(saved) : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (insecure origin): the link stays selectable
    }
  };

  const footer = saved ? (
    <Button type="button" label={t('views.close')} onClick={() => setOpen(false)} />
  ) : (
    <>
      <Button type="button" label={t('views.cancel')} text onClick={() => setOpen(false)} />
      <Button type="button" label={busy ? t('views.saving') : t('views.saveButton')} icon="pi pi-check" loading={busy} onClick={() => void submit()} />
    </>
  );

  return (
    <>
      <Button
        type="button"
        label={t('views.save')}
        icon="pi pi-bookmark"
        size="small"
        outlined
        onClick={() => {
          reset();
          setOpen(true);
        }}
      />
      <Dialog header={t('views.saveTitle')} visible={open} onHide={() => setOpen(false)} footer={footer} className="sv-dialog" breakpoints={{ '640px': '95vw' }} style={{ width: '32rem' }}>
        {saved ? (
          <div className="sv-saved" role="status">
            <p>{t('views.saved', { name: saved.name })}</p>
            <label htmlFor="sv-link">{t('views.link')}</label>
            <div className="sv-link-row">
              <InputText id="sv-link" value={link} readOnly onFocus={(e) => e.currentTarget.select()} />
              <Button type="button" icon="pi pi-copy" label={copied ? t('views.copied') : t('views.copy')} outlined size="small" onClick={() => void copy()} />
            </div>
          </div>
        ) : (
          <form
            className="sv-form"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <p className="sv-help">{t('views.saveHelp')}</p>
            <label htmlFor="sv-name">{t('views.name')}</label>
            <InputText
              id="sv-name"
              value={name}
              maxLength={SAVED_VIEW_LIMITS.nameMax}
              placeholder={t('views.namePlaceholder')}
              autoFocus
              invalid={error !== null}
              aria-describedby={error ? 'sv-error' : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            <div className="sv-share">
              <Checkbox inputId="sv-shared" checked={shared} onChange={(e) => setShared(e.checked === true)} />
              <label htmlFor="sv-shared">{t('views.share')}</label>
            </div>
            <p className="sv-help">{t('views.shareHelp')}</p>
            {error ? (
              <p id="sv-error" className="sv-error" role="alert">
                {error}
              </p>
            ) : null}
          </form>
        )}
      </Dialog>
    </>
  );
}
