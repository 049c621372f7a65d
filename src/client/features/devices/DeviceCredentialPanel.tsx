import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../i18n/messages';
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import type { CredentialStatus } from '../../../shared/hht-sync';
import { fetchCredentialStatus, issueCredential, revokeCredential, toFailure } from './api';
import { dateTime } from './format';

/**
 * The device's credential for the sync API (device admins): issue (the token is shown here once), re-issue
 * (the old one stops working) and revoke.
 */
export function DeviceCredentialPanel(props: { deviceId: string }) {
  const { t } = useTranslation();
  const { deviceId } = props;
  const [status, setStatus] = useState<CredentialStatus | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [note, setNote] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    fetchCredentialStatus(deviceId, ctl.signal).then(setStatus, async (err: unknown) => {
      if (!ctl.signal.aborted) setNote({ severity: 'error', text: (await toFailure(err)).message });
    });
    return () => ctl.abort();
  }, [deviceId, reloads]);

  const act = async (action: 'issue' | 'revoke'): Promise<void> => {
    setBusy(true);
    setNote(null);
    try {
      if (action === 'issue') {
        const issued = await issueCredential(deviceId);
        setToken(issued.token);
        setNote({ severity: 'success', text: issued.message });
      } else {
        setToken(null);
        setNote({ severity: 'success', text: (await revokeCredential(deviceId)).message });
      }
      setReloads((r) => r + 1);
    } catch (err) {
      setNote({ severity: 'error', text: (await toFailure(err)).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="dev-form" aria-label={t('devices.credentialOf', { id: deviceId })}>
      {note ? <Message severity={note.severity} text={localizeMessage(note.text)} className="dev-form-msg" /> : null}
      <p>
        {status === null
          ? t('common.loading')
          : status.active
            ? t('devices.credentialActive', { at: dateTime(status.issuedAt), by: status.issuedBy ?? '-' })
            : t('devices.credentialNone')}
      </p>
      {token ? (
        <>
          <label htmlFor="dev-token">{t('devices.token')}</label>
          <InputText id="dev-token" value={token} readOnly onFocus={(e) => e.currentTarget.select()} />
        </>
      ) : null}
      <div className="dev-form-actions">
        <Button type="button" label={status?.active ? t('devices.issueNew') : t('devices.issue')} icon="pi pi-key" loading={busy} disabled={busy} onClick={() => void act('issue')} />
        {status?.active ? (
          <Button type="button" label={t('devices.revoke')} icon="pi pi-ban" severity="danger" outlined disabled={busy} onClick={() => void act('revoke')} />
        ) : null}
      </div>
    </div>
  );
}
