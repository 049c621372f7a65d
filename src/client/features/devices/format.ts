import { formatDate, formatDateTime } from '../../../shared/column-types';
import type { DeviceStatus } from '../../../shared/devices';
import { t } from '../../i18n';

/** The status in the interface language (the shared English labels are the same words). */
export const statusLabel = (s: DeviceStatus): string => t(`devices.status${s}`);

export const statusSeverity = (s: DeviceStatus): 'success' | 'warning' | 'danger' | 'secondary' =>
  s === 'IN_SERVICE' ? 'success' : s === 'UNDER_REPAIR' ? 'warning' : s === 'LOST' ? 'danger' : 'secondary';

export const date = (v: string | null): string => (v ? formatDate(v) : '');
export const dateTime = (v: string | null): string => (v ? formatDateTime(v) : '');
