import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../i18n/messages';
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { DEVICE_LIMITS, DEVICE_STATUSES, type DeviceDetails, type DeviceStatus } from '../../../shared/devices';
import { saveDevice, toFailure, type Failure } from './api';
import { statusLabel } from './format';

export interface EditValues {
  status: DeviceStatus;
  assignedTteId: string | null;
  remarks: string;
}

export function initialValues(d: DeviceDetails): EditValues {
  return { status: d.device.status, assignedTteId: d.device.assignedTteId, remarks: d.device.remarks ?? '' };
}

/**
 * Status, assignment and remarks of one device. The values live in the parent, so nothing typed is lost when
 * a save fails or the device is reloaded after a conflict; the save always sends the version last loaded.
 */
export function DeviceEditForm(props: {
  details: DeviceDetails;
  values: EditValues;
  onChange: (v: EditValues) => void;
  onSaved: (message: string) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const { details, values, onChange } = props;
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const withdrawn = values.status === 'WITHDRAWN';
  const localErrors: Record<string, string> = {};
  if (withdrawn && values.assignedTteId) localErrors.assignedTteId = 'A withdrawn device cannot be assigned: clear the TTE.';
  if (values.remarks.length > DEVICE_LIMITS.remarksMax) localErrors.remarks = `Keep remarks to ${DEVICE_LIMITS.remarksMax} characters.`;
  const fieldError = (f: string): string | undefined => {
    const text = localErrors[f] ?? failure?.fields[f];
    return text === undefined ? undefined : localizeMessage(text);
  };

  const save = async () => {
    if (Object.keys(localErrors).length > 0) return;
    setSaving(true);
    setFailure(null);
    try {
      const res = await saveDevice({
        deviceId: details.device.deviceId,
        version: details.device.version,
        status: values.status,
        assignedTteId: values.assignedTteId,
        remarks: values.remarks.trim() ? values.remarks.trim() : null,
      });
      props.onSaved(res.message);
    } catch (err) {
      setFailure(await toFailure(err));
    } finally {
      setSaving(false);
    }
  };

  const tteOptions = details.assignableTtes.map((t) => ({ value: t.tteId, label: `${t.tteId} - ${t.name} (${t.lobbyCode})` }));
  return (
    <form
      className="dev-form"
      aria-label={t('devices.changeDevice', { id: details.device.deviceId })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {failure ? (
        <Message
          severity={failure.status === 409 ? 'warn' : 'error'}
          className="dev-form-msg"
          content={
            <div className="dev-form-msg-body" role="alert">
              <span>{localizeMessage(failure.message)}</span>
              {failure.status === 409 ? (
                <Button type="button" label={t('devices.reloadLatest')} icon="pi pi-refresh" size="small" onClick={() => { setFailure(null); props.onReload(); }} />
              ) : null}
            </div>
          }
        />
      ) : null}
      <label htmlFor="dev-status">{t('devices.status')}</label>
      <Dropdown
        inputId="dev-status"
        value={values.status}
        options={DEVICE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        onChange={(e) => onChange({ ...values, status: e.value as DeviceStatus })}
      />
      <label htmlFor="dev-tte">{t('devices.assignedTte')}</label>
      <Dropdown
        inputId="dev-tte"
        value={values.assignedTteId}
        options={tteOptions}
        placeholder={t('devices.notAssigned')}
        filter
        showClear
        invalid={Boolean(fieldError('assignedTteId'))}
        onChange={(e) => onChange({ ...values, assignedTteId: (e.value as string | undefined) ?? null })}
        aria-describedby="dev-tte-error"
      />
      <small id="dev-tte-error" className="dev-field-error">{fieldError('assignedTteId') ?? ''}</small>
      <label htmlFor="dev-remarks">{t('devices.remarks')}</label>
      <InputTextarea
        id="dev-remarks"
        value={values.remarks}
        rows={3}
        autoResize
        invalid={Boolean(fieldError('remarks'))}
        onChange={(e) => onChange({ ...values, remarks: e.target.value })}
        aria-describedby="dev-remarks-help"
      />
      <small id="dev-remarks-help" className={fieldError('remarks') ? 'dev-field-error' : 'dev-help'}>
        {fieldError('remarks') ?? `${values.remarks.length}/${DEVICE_LIMITS.remarksMax}`}
      </small>
      <div className="dev-form-actions">
        <Button type="submit" label={t('devices.saveChanges')} icon="pi pi-check" loading={saving} disabled={saving || Object.keys(localErrors).length > 0} />
      </div>
    </form>
  );
}
