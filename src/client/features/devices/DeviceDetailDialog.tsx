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
  if (b.status !== n.status) parts.push(`Status ${statusLabel(b.status)} → ${statusLabel(n.status)}`);
  if (b.assignedTteId !== n.assignedTteId) parts.push(`TTE ${b.assignedTteId ?? 'none'} → ${n.assignedTteId ?? 'none'}`);
  if ((b.remarks ?? '') !== (n.remarks ?? '')) parts.push(`Remarks: ${n.remarks ?? '(cleared)'}`);
  return parts.length > 0 ? parts.join('; ') : 'Saved without changes';
}

/** Detail of one device: facts, who used it on which train, the audit trail, and (admins) the edit form. */
export function DeviceDetailDialog(props: {
  deviceId: string | null;
  draft: EditValues | undefined;
  onDraft: (deviceId: string, v: EditValues | undefined) => void;
  onHide: () => void;
  onSaved: (message: string) => void;
}) {
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
      header={deviceId ? `Device ${deviceId}` : 'Device'}
      visible={deviceId !== null}
      onHide={props.onHide}
      style={{ width: 'min(60rem, 96vw)' }}
      maximizable
      modal
    >
      {state.status === 'loading' ? (
        <Skeleton height="12rem" />
      ) : state.status === 'error' ? (
        <Message severity="error" text={state.message} />
      ) : details && values ? (
        <div className="dev-detail">
          {saved ? <Message severity="success" text={saved} className="dev-form-msg" /> : null}
          <dl className="dev-facts">
            <dt>Status</dt>
            <dd><Tag value={statusLabel(details.device.status)} severity={statusSeverity(details.device.status)} /></dd>
            <dt>Serial / IMEI</dt>
            <dd>{details.device.serialNo} / {details.device.imei}</dd>
            <dt>Make and model</dt>
            <dd>{details.device.make} {details.device.model} (app {details.device.appVersion})</dd>
            <dt>Zone / division / lobby</dt>
            <dd>{details.device.zoneCode} / {details.device.divCode} / {details.device.lobbyCode}</dd>
            <dt>Assigned TTE</dt>
            <dd>{details.device.assignedTteId ? `${details.device.assignedTteId} - ${details.device.assignedTteName ?? ''}` : 'Not assigned'}</dd>
            <dt>Registered</dt>
            <dd>{date(details.device.registeredOn)}</dd>
            <dt>Last sync</dt>
            <dd>{dateTime(details.device.lastSyncAt) || 'Never'}</dd>
            <dt>Remarks</dt>
            <dd>{details.device.remarks ?? '-'}</dd>
            <dt>Last changed</dt>
            <dd>{dateTime(details.device.updatedAt)} {details.device.updatedBy ? `by ${details.device.updatedBy}` : ''} (version {details.device.version})</dd>
          </dl>
          <TabView>
            {details.canEdit ? (
              <TabPanel header="Change">
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
              <TabPanel header="Sync credential">
                <DeviceCredentialPanel deviceId={details.device.deviceId} />
              </TabPanel>
            ) : null}
            <TabPanel header={`Used by (${details.history.length})`}>
              <DataTable value={details.history} size="small" paginator rows={10} emptyMessage="This device has not been used on a train yet." stripedRows>
                <Column header="Run date" body={(r: DeviceDetails['history'][number]) => date(r.startDate)} />
                <Column field="trainNo" header="Train" />
                <Column field="trainName" header="Train name" />
                <Column header="Beat" body={(r: DeviceDetails['history'][number]) => `${r.beatNo}: ${r.fromStation}-${r.toStation}`} />
                <Column header="TTE" body={(r: DeviceDetails['history'][number]) => `${r.tteId} - ${r.tteName}`} />
                <Column header="Sign on" body={(r: DeviceDetails['history'][number]) => dateTime(r.signOnAt)} />
                <Column header="Sign off" body={(r: DeviceDetails['history'][number]) => dateTime(r.signOffAt)} />
              </DataTable>
            </TabPanel>
            <TabPanel header={`Audit trail (${details.audit.length})`}>
              <DataTable value={details.audit} size="small" emptyMessage="No changes recorded yet." stripedRows>
                <Column header="When" body={(a: DeviceAuditEntry) => dateTime(a.changedAt)} />
                <Column header="Who" body={(a: DeviceAuditEntry) => `${a.changedBy} (${a.changedByLevel})`} />
                <Column header="Change" body={changeText} />
                <Column header="Version" body={(a: DeviceAuditEntry) => `${a.before.version} → ${a.after.version}`} />
              </DataTable>
            </TabPanel>
          </TabView>
        </div>
      ) : null}
    </Dialog>
  );
}
