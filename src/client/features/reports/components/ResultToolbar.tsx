import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import type { ColumnDef } from '../../../../shared/report-definition';
import type { SortState } from '../lib/sort-rows';
import { useReportActions, type ReportPageState } from '../report-actions';
import { ExportButtons } from './ExportButtons';
import { PrintButton, type PrintData } from './PrintView';

export interface ResultToolbarProps {
  /** The count, the applied filters and the freshness, on the bar's left. */
  summary: ReactNode;
  /** The run on screen: what the export, print and the app's buttons act on. */
  page: ReportPageState;
  /** Cards are shown (a phone, or the user's choice): the layout button offers the table. */
  cards: boolean;
  onLayoutChange: (layout: 'grid' | 'cards') => void;
  sort: SortState;
  total: number;
  printTitle: string;
  printColumns: ColumnDef[];
  printFilters: { label: string; value: string }[];
  fetchAll: (onProgress: (loaded: number, total: number) => void) => Promise<PrintData>;
}

/** The bar above a result: its summary, then the layout switch, export, print and the buttons the app adds. */
export function ResultToolbar({ summary, page, cards, onLayoutChange, sort, total, printTitle, printColumns, printFilters, fetchAll }: ResultToolbarProps) {
  const { t } = useTranslation();
  const { resultToolbar } = useReportActions();
  return (
    <div className="report-result-bar">
      {summary}
      <div className="report-result-actions">
        <Button
          type="button"
          size="small"
          outlined
          icon={cards ? 'pi pi-table' : 'pi pi-th-large'}
          label={cards ? t('views.layoutGrid') : t('views.layoutCards')}
          onClick={() => onLayoutChange(cards ? 'grid' : 'cards')}
        />
        <ExportButtons report={page.report} {...(page.tab ? { tabId: page.tab } : {})} filter={page.filter} columns={page.visibleColumns} sort={sort} total={total} />
        <PrintButton title={printTitle} columns={printColumns} filters={printFilters} fetchAll={fetchAll} />
        {resultToolbar?.(page)}
      </div>
    </div>
  );
}
