/**
 * The trains this browser remembers (train numbers only, nothing personal): the last one a report ran for, and the
 * one picked for the top bar's running strip. A train report opens with the first, else the second.
 */
export const LAST_REPORT_TRAIN_KEY = 'hht.reports.lastTrain';
export const STRIP_TRAIN_KEY = 'hht.trainStrip.trainNo';

/** Local storage may be unavailable (private mode, a locked-down browser): remembering a train is a nicety. */
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The train to open a train report with: the last report's, else the strip's; null when none is remembered. */
export function rememberedTrain(): string | null {
  return read(LAST_REPORT_TRAIN_KEY) ?? read(STRIP_TRAIN_KEY);
}

export function rememberReportTrain(trainNo: string): void {
  try {
    localStorage.setItem(LAST_REPORT_TRAIN_KEY, trainNo);
  } catch {
    // Not remembered; the next report simply does not preselect it.
  }
}
