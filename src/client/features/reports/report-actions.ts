/**
 * The buttons the app adds to the report page, per place, without the report feature knowing them: features do not
 * import each other, so the app's report route joins them (the saved views' and the subscriptions' buttons).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { PublicReport } from '../../../shared/report-definition';
import type { Filter } from './lib/filter-url';
import type { StoredColumn } from './lib/column-state';

/** The report page as it is on screen after a run: what every added button is given. */
export interface ReportPageState {
  report: PublicReport;
  /** The open tab; null on the report's main view. */
  tab: string | null;
  /** The filter of the run on screen (from the URL, with the definition's defaults). */
  filter: Filter;
  sortBy: string | null;
  sortDir: 'asc' | 'desc' | null;
  /** The fields of the columns shown, in the order shown. */
  visibleColumns: string[];
  /**
   * The grid's column layout (order, visibility, width, pinning) as this browser remembers it, or null for the
   * definition's. A function: the grid stores a moved or resized column without the page rendering again.
   */
  columnLayout: () => StoredColumn[] | null;
  /** The layout the user (or a saved view) chose; null: a table, or cards on a phone. */
  layout: 'grid' | 'cards' | null;
}

/** One place's buttons, for the page's state now. */
export type ReportAction = (page: ReportPageState) => ReactNode;

export interface ReportActions {
  /** Beside the report's title, once the report has run (whatever the answer). */
  header?: ReportAction;
  /** At the end of the result toolbar (after export and print), when the result has rows. */
  resultToolbar?: ReportAction;
}

export const ReportActionsContext = createContext<ReportActions>({});
export const useReportActions = (): ReportActions => useContext(ReportActionsContext);
