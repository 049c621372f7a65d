/** The device sync API's contract (POST /api/hht/sync), shared by server, docs and tests. */

export const HHT_SYNC_LIMITS = {
  /** Records in one batch: the feed loads whole past days through larger internal batches. */
  batchMax: 5000,
  idMax: 64,
  textMax: 200,
} as const;

export const HHT_RECORD_TYPES = ['CHECK', 'ALLOTMENT', 'SIGN_ON', 'SIGN_OFF', 'TWR', 'EFT', 'BERTH_RELEASE', 'DEFICIENCY', 'DEFICIENCY_CLOSE', 'TDR_REMARK'] as const;
export type HhtRecordType = (typeof HHT_RECORD_TYPES)[number];

interface Base {
  /** The device's own id for the record: a record id already stored for this device is not stored again. */
  id: string;
  beatId: number;
}

export interface CheckRecord extends Base {
  type: 'CHECK';
  eventType: 'O' | 'NT' | 'SHIFTED' | 'GOT_DOWN';
  psgnId?: number | null;
  coachId?: string | null;
  berthNo?: number | null;
  newCoachId?: string | null;
  newBerthNo?: number | null;
  stationCode?: string | null;
  deviceTime: string;
  eventId?: number;
}

export interface AllotmentRecord extends Base {
  type: 'ALLOTMENT';
  psgnId: number;
  coachId: string;
  berthNo: number;
  fromStation: string;
  toStation: string;
  at: string;
  eftNo?: string | null;
  eventId?: number;
  reallocId?: number;
}

export interface SignOnRecord extends Base {
  type: 'SIGN_ON';
  at: string;
}

export interface SignOffRecord extends Base {
  type: 'SIGN_OFF';
  at: string;
}

export interface TwrRecord extends Base {
  type: 'TWR';
  twrStatus: 'SUBMITTED' | 'NOT_SUBMITTED' | 'EMPTY';
  at?: string | null;
}

export interface PaymentRecord {
  txnId: string;
  amount: number;
  mode: 'CARD' | 'UPI';
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  at: string;
  posId: string;
}

export interface EftRecord extends Base {
  type: 'EFT';
  eftNo: string;
  pnr?: string | null;
  psgnName: string;
  coachId?: string | null;
  fromStation: string;
  toStation: string;
  reason: 'UPGRADE' | 'TICKETLESS' | 'BERTH_CHARGE' | 'EXTENSION' | 'IRREGULAR';
  excessFare: number;
  excessCharge: number;
  total: number;
  paymentMode: 'CASH' | 'CARD' | 'UPI';
  issuedAt: string;
  payments?: PaymentRecord[];
}

export interface BerthReleaseRecord extends Base {
  type: 'BERTH_RELEASE';
  coachId: string;
  berthNo: number;
  fromStation: string;
  at: string;
  rebooked?: boolean;
}

export interface DeficiencyRecord extends Base {
  type: 'DEFICIENCY';
  coachId: string;
  category: string;
  description: string;
  stationCode: string;
  reportedAt: string;
  status?: 'OPEN' | 'CLOSED';
  closedAt?: string | null;
  deficiencyId?: number;
}

/** The closing of a deficiency reported earlier (by this batch or an earlier one) on the beat's run. */
export interface DeficiencyCloseRecord extends Base {
  type: 'DEFICIENCY_CLOSE';
  deficiencyId: number;
  closedAt: string;
}

export interface TdrRemarkRecord extends Base {
  type: 'TDR_REMARK';
  tdrId: string;
  remark: string;
}

export type HhtRecord =
  | CheckRecord
  | AllotmentRecord
  | SignOnRecord
  | SignOffRecord
  | TwrRecord
  | EftRecord
  | BerthReleaseRecord
  | DeficiencyRecord
  | DeficiencyCloseRecord
  | TdrRemarkRecord;

export interface SyncRequest {
  batchId: string;
  records: HhtRecord[];
}

/** The answer to a batch; the same answer again for a batch already stored. */
export interface SyncResponse {
  batchId: string;
  received: number;
  /** Records stored by this batch (records already stored by an earlier batch are not counted). */
  stored: number;
  duplicates: number;
  receivedAt: string;
  replayed: boolean;
}

export interface IssuedCredential {
  deviceId: string;
  /** Shown once: only its SHA-256 is kept. */
  token: string;
  issuedAt: string;
}

export interface CredentialStatus {
  deviceId: string;
  active: boolean;
  issuedAt: string | null;
  issuedBy: string | null;
}

export const HHT_SYNC_MESSAGES = {
  noCredential: 'Device credential required: send Authorization: Bearer <device token>',
  badCredential: 'Device credential is not valid or has been revoked',
  deviceRefused: (id: string, status: string) => `Device ${id} is ${status} and may not sync`,
  issued: (id: string) => `Credential issued for ${id}: copy it now, it is not shown again`,
  revoked: (id: string) => `Credential of ${id} revoked`,
  noActive: (id: string) => `Device ${id} has no active credential`,
  tooManyFailures: (seconds: number) => `Too many invalid device credentials from this address. Try again in ${seconds} s.`,
} as const;
