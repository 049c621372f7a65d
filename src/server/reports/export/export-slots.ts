/**
 * A cap on exports running at once in this server process. Each holds a database connection (a cursor) for as long
 * as the download lasts, and xlsx/PDF a worker thread: past the cap a new export is refused at once with a clear
 * message instead of queuing behind the others or starving report queries of connections.
 */
export class ExportSlots {
  /** Slots taken now by every ExportSlots of this process (the metrics' figure). */
  static inUse = 0;
  private active = 0;
  constructor(readonly max: number) {}

  get running(): number {
    return this.active;
  }

  /** A release function (idempotent), or null when every slot is taken. */
  tryAcquire(): (() => void) | null {
    if (this.active >= this.max) return null;
    this.active += 1;
    ExportSlots.inUse += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      ExportSlots.inUse -= 1;
    };
  }
}

export const EXPORTS_BUSY_MESSAGE = 'Too many exports are being prepared right now. Please try again in a minute.';
