/**
 * What the app adds to every report page without the report feature knowing it (features do not import each
 * other): the app's router fills this context, e.g. with the saved-views button.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { Filter } from './lib/filter-url';
import type { StoredColumn } from './lib/column-state';

/** The report page's state as a saved view keeps it, read when asked (the column layout is the user's latest). */
export interface ReportViewSnapshot {
  reportId: string;
  reportTitle: string;
  filter: Filter;
  tab: string | null;
  sortBy: string | null;
  sortDir: 'asc' | 'desc' | null;
  columns: StoredColumn[] | null;
  layout: 'grid' | 'cards' | null;
}

export interface ReportExtensions {
  /** Buttons for the report's header, shown once the report has run (a filter is applied). */
  headerActions?: (snapshot: () => ReportViewSnapshot) => ReactNode;
}

export const ReportExtensionsContext = createContext<ReportExtensions>({});
export const useReportExtensions = (): ReportExtensions => useContext(ReportExtensionsContext);
