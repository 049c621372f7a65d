import { HTTPError } from 'ky';
import { api } from '../../lib/api';
import type {
  DeviceDetails,
  DeviceList,
  DeviceStatus,
  UpdateDeviceRequest,
  UpdateDeviceResponse,
} from '../../../shared/devices';
import type { CredentialStatus, IssuedCredential } from '../../../shared/hht-sync';

export interface Failure {
  status: number | null;
  message: string;
  fields: Record<string, string>;
}

/** What went wrong, for people: the server's message and the fields it names. */
export async function toFailure(err: unknown): Promise<Failure> {
  if (err instanceof HTTPError) {
    const out: Failure = { status: err.response.status, message: `The server answered ${err.response.status}.`, fields: {} };
    try {
      const body = (await err.response.clone().json()) as { message?: unknown; fields?: { field: string; reason: string }[] };
      if (typeof body.message === 'string') out.message = body.message;
      for (const f of body.fields ?? []) out.fields[f.field] = f.reason;
    } catch {
      /* not JSON */
    }
    return out;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return { status: null, message: 'The server took too long to answer.', fields: {} };
  if (err instanceof Error && err.name !== 'TypeError' && err.message) return { status: null, message: err.message, fields: {} };
  return { status: null, message: 'The server cannot be reached. Check your connection.', fields: {} };
}

export function fetchDevices(q: { q: string; status: DeviceStatus | null; page: number; rowsPerPage: number }, signal?: AbortSignal): Promise<DeviceList> {
  const searchParams: Record<string, string> = { page: String(q.page), rowsPerPage: String(q.rowsPerPage) };
  if (q.q.trim()) searchParams.q = q.q.trim().slice(0, 40);
  if (q.status) searchParams.status = q.status;
  return api.get('/api/Device', { searchParams, signal }).json<DeviceList>();
}

export function fetchDeviceDetails(deviceId: string, signal?: AbortSignal): Promise<DeviceDetails> {
  return api.post('/api/DeviceDetailsWithDeviceId', { json: { deviceId }, signal }).json<DeviceDetails>();
}

export function saveDevice(body: UpdateDeviceRequest): Promise<UpdateDeviceResponse> {
  return api.post('/api/UpdateDevice', { json: body }).json<UpdateDeviceResponse>();
}

export function fetchCredentialStatus(deviceId: string, signal?: AbortSignal): Promise<CredentialStatus> {
  return api.post('/api/hht/credentials/status', { json: { deviceId }, signal }).json<CredentialStatus>();
}

export function issueCredential(deviceId: string): Promise<IssuedCredential & { message: string }> {
  return api.post('/api/hht/credentials/issue', { json: { deviceId } }).json<IssuedCredential & { message: string }>();
}

export function revokeCredential(deviceId: string): Promise<{ message: string }> {
  return api.post('/api/hht/credentials/revoke', { json: { deviceId } }).json<{ message: string }>();
}
