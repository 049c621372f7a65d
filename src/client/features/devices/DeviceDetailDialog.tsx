import { useTranslation } from 'react-i18next';
import { t as translate } from '../../i18n';
import { localizeMessage } from '../../i18n/messages';
import { useCallback, useEffect, useState } from 'react';
import { Dialog } from 'primereact/dialog';
import { TabView, TabPanel } from 'primereact/tabview';
import { DataTable } from 'primereact/datatable';
import { Column } from 'primereact/column';
import { Tag } from 'primereact/tag';
import { Skeleton } from 'primereact/skeleton';
import { Message } from 'primereact/message';
import type { DeviceAuditEntry, DeviceDetails, DeviceSnapshot } from '../../../shared/devices';
import { fetchDeviceDetails, toFailure } from './api';
import { DeviceEditForm, initialValues, type EditValues } from './DeviceEditForm';
import { DeviceCredentialPanel } from './DeviceCredentialPanel';
import { date, dateTime, statusLabel, statusSeverity } from './format';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; details: DeviceDetails };

function changeText(a: DeviceAuditEntry): string {
  const parts: string[] = [];
  const b: DeviceSnapshot = a.before;
  const n: DeviceSnapshot = a.after;
  if (b.status !== n.status) parts.push(translate('devices.changeStatus', { from: statusLabel(b.status), to: statusLabel(n.status) }));
  const none = translate('devices.none');
  if (b.assignedTteId !== n.assignedTteId) parts.push(translate('devices.changeTte', { from: b.assignedTteId ?? none, to: n.assignedTteId ?? none }));
  if ((b.remarks ?? '') !== (n.remarks ?? '')) parts.push(translate('devices.changeRemarks', { remarks: n.remarks ?? translate('devices.cleared') }));
  return parts.length > 0 ? parts.join('; ') : translate('devices.noChange');
}

/** Detail of one device: facts, who used it on which train, the audit trail, and (admins) the edit form. */
export function DeviceDetailDialog(props: {
  deviceId: string | null;
  draft: EditValues | undefined;
  onDraft: (deviceId: string, v: EditValues | undefined) => void;
  onHide: () => void;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const { deviceId, draft, onDraft } = props;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    if (!deviceId) return;
    const ctl = new AbortController();
    setState((s) => (s.status === 'ok' && s.details.device.deviceId === deviceId ? s : { status: 'loading' }));
    fetchDeviceDetails(deviceId, ctl.signal).then(
      (details) => setState({ status: 'ok', details }),
      async (err: unknown) => {
        if (!ctl.signal.aborted) setState({ status: 'error', message: (await toFailure(err)).message });
      },
    );
    return () => ctl.abort();
  }, [deviceId, reloads]);

  const reload = useCallback(() => setReloads((r) => r + 1), []);
  const details = state.status === 'ok' ? state.details : null;
  const values = details ? (draft ?? initialValues(details)) : null;

  return (
    <Dialog
      header={deviceId ? t('devices.deviceId', { id: deviceId }) : t('devices.device')}
      visible={deviceId !== null}
      onHide={props.onHide}
      style={{ width: 'min(60rem, 96vw)' }}
      maximizable
      modal
    >
      {state.status === 'loading' ? (
        <Skeleton height="12rem" />
      ) : state.status === 'error' ? (
        <Message severity="error" text={localizeMessage(state.message)} />
      ) : details && values ? (
        <div className="dev-detail">
          {saved ? <Message severity="success" text={localizeMessage(saved)} className="dev-form-msg" /> : null}
          <dl className="dev-facts">
            <dt>{t('devices.status')}</dt>
            <dd><Tag value={statusLabel(details.device.status)} severity={statusSeverity(details.device.status)} /></dd>
            <dt>{t('devices.serialImei')}</dt>
            <dd>{details.device.serialNo} / {details.device.imei}</dd>
            <dt>{t('devices.makeModel')}</dt>
            <dd>{details.device.make} {details.device.model} {t('devices.app', { version: details.device.appVersion })}</dd>
            <dt>{t('devices.area')}</dt>
            <dd>{details.device.zoneCode} / {details.device.divCode} / {details.device.lobbyCode}</dd>
            <dt>{t('devices.assignedTte')}</dt>
            <dd>{details.device.assignedTteId ? `${details.device.assignedTteId} - ${details.device.assignedTteName ?? ''}` : t('devices.notAssigned')}</dd>
            <dt>{t('devices.registered')}</dt>
            <dd>{date(details.device.registeredOn)}</dd>
            <dt>{t('devices.lastSync')}</dt>
            <dd>{dateTime(details.device.lastSyncAt) || t('devices.never')}</dd>
            <dt>{t('devices.remarks')}</dt>
            <dd>{details.device.remarks ?? '-'}</dd>
            <dt>{t('devices.lastChanged')}</dt>
            <dd>{dateTime(details.device.updatedAt)} {details.device.updatedBy ? t('devices.byUser', { user: details.device.updatedBy }) : ''}{' '}
              {t('devices.versionN', { version: details.device.version })}</dd>
          </dl>
          <TabView>
            {details.canEdit ? (
              <TabPanel header={t('devices.change')}>
                <DeviceEditForm
                  details={details}
                  values={values}
                  onChange={(v) => {
                    setSaved(null);
                    onDraft(details.device.deviceId, v);
                  }}
                  onReload={reload}
                  onSaved={(message) => {
                    onDraft(details.device.deviceId, undefined);
                    setSaved(message);
                    reload();
                    props.onSaved(message);
                  }}
                />
              </TabPanel>
            ) : null}
            {details.canEdit ? (
              <TabPanel header={t('devices.syncCredential')}>
                <DeviceCredentialPanel deviceId={details.device.deviceId} />
              </TabPanel>
            ) : null}
            <TabPanel header={t('devices.usedBy', { count: details.history.length })}>
              <DataTable value={details.history} size="small" paginator rows={10} emptyMessage={t('devices.neverUsed')} stripedRows>
                <Column header={t('devices.runDate')} body={(r: DeviceDetails['history'][number]) => date(r.startDate)} />
                <Column field="trainNo" header={t('devices.train')} />
                <Column field="trainName" header={t('devices.trainName')} />
                <Column header={t('devices.beat')} body={(r: DeviceDetails['history'][number]) => `${r.beatNo}: ${r.fromStation}-${r.toStation}`} />
                <Column header="TTE" body={(r: DeviceDetails['history'][number]) => `${r.tteId} - ${r.tteName}`} />
                <Column header={t('devices.signOn')} body={(r: DeviceDetails['history'][number]) => dateTime(r.signOnAt)} />
                <Column header={t('devices.signOff')} body={(r: DeviceDetails['history'][number]) => dateTime(r.signOffAt)} />
              </DataTable>
            </TabPanel>
            <TabPanel header={t('devices.audit', { count: details.audit.length })}>
              <DataTable value={details.audit} size="small" emptyMessage={t('devices.noChanges')} stripedRows>
                <Column header={t('devices.when')} body={(a: DeviceAuditEntry) => dateTime(a.changedAt)} />
                <Column header={t('devices.who')} body={(a: DeviceAuditEntry) => `${a.changedBy} (${a.changedByLevel})`} />
                <Column header={t('devices.change')} body={changeText} />
                <Column header={t('devices.version')} body={(a: DeviceAuditEntry) => `${a.before.version} → ${a.after.version}`} />
              </DataTable>
            </TabPanel>
          </TabView>
        </div>
      ) : null}
    </Dialog>
  );
}
