import { formatDate, formatDateTime } from '../../../shared/column-types';
import { DEVICE_STATUS_LABELS, type DeviceStatus } from '../../../shared/devices';

export const statusLabel = (s: DeviceStatus): string => DEVICE_STATUS_LABELS[s] ?? s;

export const statusSeverity = (s: DeviceStatus): 'success' | 'warning' | 'danger' | 'secondary' =>
  s === 'IN_SERVICE' ? 'success' : s === 'UNDER_REPAIR' ? 'warning' : s === 'LOST' ? 'danger' : 'secondary';

export const date = (v: string | null): string => (v ? formatDate(v) : '');
export const dateTime = (v: string | null): string => (v ? formatDateTime(v) : '');
