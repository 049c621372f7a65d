import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../i18n/messages';
import { useEffect, useRef, useState } from 'react';
import { DataTable, type DataTablePageEvent } from 'primereact/datatable';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Tag } from 'primereact/tag';
import { Toast } from 'primereact/toast';
import { Message } from 'primereact/message';
import { DEVICE_LIMITS, DEVICE_STATUSES, type Device, type DeviceList, type DeviceStatus } from '../../../shared/devices';
import { fetchDevices, toFailure } from './api';
import { DeviceDetailDialog } from './DeviceDetailDialog';
import type { EditValues } from './DeviceEditForm';
import { dateTime, statusLabel, statusSeverity } from './format';
import './devices.css';

const PAGE = 25;

/** /layout/uikit/devices (menu: UTILITIES > Devices): HHT devices of the user's area, searchable, with detail, history and (admins) edit. */
export function DevicesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<DeviceStatus | null>(null);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<DeviceList | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const [drafts, setDrafts] = useState<Record<string, EditValues>>({});
  const toast = useRef<Toast>(null);

  // Search as you type, without a call per keystroke.
  useEffect(() => {
    const t = setTimeout(() => {
      setQuery(search);
      setPage(1);
    }, 300);
    return () => clearTimeout(t);
  }, [search]);

  useEffect(() => {
    const ctl = new AbortController();
    setLoading(true);
    fetchDevices({ q: query, status, page, rowsPerPage: PAGE }, ctl.signal).then(
      (l) => {
        setList(l);
        setError(null);
        setLoading(false);
      },
      async (err: unknown) => {
        if (ctl.signal.aborted) return;
        setError((await toFailure(err)).message);
        setLoading(false);
      },
    );
    return () => ctl.abort();
  }, [query, status, page, refresh]);

  return (
    <div className="dev-page">
      <Toast ref={toast} />
      <h1 className="dev-heading">{t('devices.heading')}</h1>
      <div className="dev-toolbar" role="search">
        <span className="p-input-icon-left dev-search">
          <i className="pi pi-search" aria-hidden="true" />
          <InputText
            value={search}
            maxLength={DEVICE_LIMITS.searchMax}
            placeholder={t('devices.searchPlaceholder')}
            aria-label={t('devices.search')}
            onChange={(e) => setSearch(e.target.value)}
          />
        </span>
        <Dropdown
          value={status}
          options={[{ value: null, label: t('devices.allStatuses') }, ...DEVICE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]}
          onChange={(e) => {
            setStatus((e.value as DeviceStatus | null) ?? null);
            setPage(1);
          }}
          aria-label={t('devices.status')}
          placeholder={t('devices.allStatuses')}
        />
      </div>
      {error ? <Message severity="error" text={t('devices.loadFailed', { message: localizeMessage(error) })} className="dev-form-msg" /> : null}
      <DataTable
        value={list?.rows ?? []}
        lazy
        paginator
        rows={PAGE}
        first={(page - 1) * PAGE}
        totalRecords={list?.total ?? 0}
        onPage={(e: DataTablePageEvent) => setPage(Math.floor(e.first / PAGE) + 1)}
        loading={loading}
        dataKey="deviceId"
        selectionMode="single"
        onRowSelect={(e) => setOpen((e.data as Device).deviceId)}
        emptyMessage={query || status ? t('devices.noMatch') : t('devices.noneInArea')}
        stripedRows
        size="small"
        aria-label={t('devices.devices')}
      >
        <Column
          header={t('devices.device')}
          body={(d: Device) => (
            <button type="button" className="dev-link" onClick={() => setOpen(d.deviceId)}>
              {d.deviceId}
            </button>
          )}
        />
        <Column field="serialNo" header={t('devices.serial')} />
        <Column header={t('devices.model')} body={(d: Device) => `${d.make} ${d.model}`} />
        <Column header={t('devices.status')} body={(d: Device) => <Tag value={statusLabel(d.status)} severity={statusSeverity(d.status)} />} />
        <Column field="divCode" header={t('devices.division')} />
        <Column field="lobbyCode" header={t('devices.lobby')} />
        <Column header={t('devices.assignedTte')} body={(d: Device) => (d.assignedTteId ? `${d.assignedTteId} - ${d.assignedTteName ?? ''}` : '-')} />
        <Column header={t('devices.lastSync')} body={(d: Device) => dateTime(d.lastSyncAt) || t('devices.never')} />
      </DataTable>
      <DeviceDetailDialog
        deviceId={open}
        draft={open ? drafts[open] : undefined}
        onDraft={(id, v) =>
          setDrafts((all) => {
            const next = { ...all };
            if (v) next[id] = v;
            else delete next[id];
            return next;
          })
        }
        onHide={() => setOpen(null)}
        onSaved={(message) => {
          toast.current?.show({ severity: 'success', summary: t('devices.saved'), detail: localizeMessage(message) });
          setRefresh((r) => r + 1);
        }}
      />
    </div>
  );
}
