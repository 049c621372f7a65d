/** Cell renderers by column type (registry): status badges and drill-down links. */
import type { ICellRendererParams } from 'ag-grid-community';
import { Link } from 'react-router-dom';
import { formatCell } from '../../../../shared/column-types';
import type { ColumnLink } from '../../../../shared/report-definition';
import { drillDownHref } from '../lib/links';
import type { Row } from '../lib/parse';
import { statusSeverity } from '../lib/status';

export function StatusCell(props: ICellRendererParams<Row>) {
  // The label (valueFormatted) is what people read; the stored code picks the colour.
  const text = props.valueFormatted ?? formatCell('status', props.value);
  if (!text) return null;
  return <span className={`report-badge report-badge-${statusSeverity(props.value)}`}>{text}</span>;
}

export interface LinkCellParams {
  link: ColumnLink;
}

export function LinkCell(props: ICellRendererParams<Row> & LinkCellParams) {
  const text = props.valueFormatted ?? formatCell(undefined, props.value);
  const href = props.data ? drillDownHref(props.link, props.data) : null;
  if (!href || !text) return <>{text}</>;
  return (
    <Link to={href} className="report-link">
      {text}
    </Link>
  );
}
