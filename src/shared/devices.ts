/** HHT device management contract (spec section 7: Device, DeviceDetailsWithDeviceId, UpdateDevice, ...). */
import type { UserLevel } from './constants';

export const DEVICE_STATUSES = ['IN_SERVICE', 'UNDER_REPAIR', 'LOST', 'WITHDRAWN'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const DEVICE_STATUS_LABELS: Record<DeviceStatus, string> = {
  IN_SERVICE: 'In service',
  UNDER_REPAIR: 'Under repair',
  LOST: 'Lost',
  WITHDRAWN: 'Withdrawn',
};

/** Levels that may change a device (within their own zone, division or lobby). */
export const DEVICE_ADMIN_LEVELS: readonly UserLevel[] = ['SU', 'ZA', 'DA', 'LA'];

export const DEVICE_LIMITS = { remarksMax: 500, searchMax: 40, pageSizeMax: 200, historyMax: 100 } as const;

export const DEVICE_MESSAGES = {
  conflict: 'This device was changed by someone else since you opened it. Reload to see the latest and apply your change again.',
  notAdmin: 'Only zone, division and lobby administrators can change devices.',
  outOfScope: 'This device belongs outside your zone, division or lobby; you cannot change it.',
  notFound: (id: string) => `No device ${id} in your area.`,
  updated: (id: string) => `Device ${id} updated.`,
} as const;

export interface Device {
  deviceId: string;
  serialNo: string;
  imei: string;
  make: string;
  model: string;
  appVersion: string;
  status: DeviceStatus;
  zoneCode: string;
  divCode: string;
  lobbyCode: string;
  assignedTteId: string | null;
  assignedTteName: string | null;
  registeredOn: string;
  lastSyncAt: string | null;
  remarks: string | null;
  version: number;
  updatedAt: string;
  updatedBy: string | null;
}

export interface DeviceList {
  rows: Device[];
  total: number;
  page: number;
  rowsPerPage: number;
}

export interface DeviceUse {
  startDate: string;
  trainNo: string;
  trainName: string;
  beatNo: number;
  fromStation: string;
  toStation: string;
  tteId: string;
  tteName: string;
  signOnAt: string | null;
  signOffAt: string | null;
}

/** The device fields an audit row records before and after a change. */
export interface DeviceSnapshot {
  status: DeviceStatus;
  assignedTteId: string | null;
  remarks: string | null;
  version: number;
}

export interface DeviceAuditEntry {
  auditId: number;
  changedAt: string;
  changedBy: string;
  changedByLevel: string;
  before: DeviceSnapshot;
  after: DeviceSnapshot;
}

export interface DeviceDetails {
  device: Device;
  history: DeviceUse[];
  audit: DeviceAuditEntry[];
  /** Whether the signed-in user may change this device. */
  canEdit: boolean;
  /** TTEs of the device's division it may be assigned to (only when canEdit). */
  assignableTtes: AssignableTte[];
}

export interface UpdateDeviceRequest {
  deviceId: string;
  version: number;
  status: DeviceStatus;
  assignedTteId: string | null;
  remarks?: string | null;
}

export interface UpdateDeviceResponse {
  message: string;
  device: Device;
}

export interface DeviceTteCount {
  deviceId: string;
  serialNo: string;
  status: DeviceStatus;
  divCode: string;
  lobbyCode: string;
  tteCount: number;
  lastUsedOn: string | null;
}

export interface TteDeviceCount {
  tteId: string;
  tteName: string;
  lobbyCode: string;
  divCode: string;
  deviceCount: number;
}

export interface MultipleDeviceCount {
  startDate: string;
  rows: { tteId: string; tteName: string; lobbyCode: string; deviceCount: number }[];
}

export interface MultipleDeviceInfo {
  tteId: string;
  startDate: string;
  rows: { deviceId: string; serialNo: string; trainNo: string; beatNo: number; fromStation: string; toStation: string; signOnAt: string | null; signOffAt: string | null }[];
}

/** TTEs a device may be assigned to (same division as the device). */
export interface AssignableTte {
  tteId: string;
  name: string;
  lobbyCode: string;
}
