import type { ColumnDef } from '../../src/shared/report-definition';

/** The passenger columns the export benchmarks write (run.ts's throughput table and exports.ts's old-vs-new runs). */
export const PASSENGER_EXPORT_COLUMNS: ColumnDef[] = [
  { field: 'pnr', headerName: 'PNR' },
  { field: 'name', headerName: 'Name' },
  { field: 'age', headerName: 'Age', type: 'number' },
  { field: 'coach_id', headerName: 'Coach' },
  { field: 'berth_no', headerName: 'Berth', type: 'number' },
  { field: 'booking_status', headerName: 'Booking Status' },
  { field: 'fare', headerName: 'Fare', type: 'currency' },
  { field: 'marked_at', headerName: 'Marked At', type: 'datetime' },
];
