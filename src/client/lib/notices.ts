/** A notice the session shows as a toast: the session queues it, the toast chunk shows it. */
export type NoticeSeverity = 'success' | 'info' | 'warn' | 'error';

export interface QueuedNotice {
  id: number;
  severity: NoticeSeverity;
  text: string;
}
