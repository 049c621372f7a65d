import { useTranslation } from 'react-i18next';
import { Chart } from 'primereact/chart';
import { formatCell, formatDate } from '../../../shared/column-types';
import type { DashboardCard } from '../../../shared/dashboard';
import type { Row } from './api';

const PALETTE = ['#3B82F6', '#10B981', '#F59E0B', '#EF4444', '#8B5CF6', '#14B8A6', '#EC4899', '#64748B'];

const label = (v: unknown): string => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? formatDate(v).slice(0, 5) : String(v ?? ''));

export function ChartBody({ card, rows }: { card: DashboardCard; rows: Row[] }) {
  const { t } = useTranslation();
  const chart = card.chart;
  if (!chart) return null;
  if (rows.length === 0) return <p className="dash-empty">{t('dashboard.noData')}</p>;
  const labels = rows.map((r) => label(r[chart.labelField]));
  const round = chart.type === 'doughnut' || chart.type === 'pie';
  const datasets = chart.series.map((s, i) => {
    const data = rows.map((r) => Number(r[s.field] ?? 0) || 0);
    const colour = PALETTE[i % PALETTE.length] ?? '#3B82F6';
    return round
      ? { label: s.label, data, backgroundColor: rows.map((_r, j) => PALETTE[j % PALETTE.length]) }
      : { label: s.label, data, borderColor: colour, backgroundColor: `${colour}55`, tension: 0.3, fill: chart.type === 'line' && i === 0 };
  });
  const summary = `${card.title}: ${rows
    .map((r, j) => `${labels[j]} ${chart.series.map((s) => `${s.label} ${formatCell('number', r[s.field])}`).join(', ')}`)
    .join('; ')}`;
  const options = {
    maintainAspectRatio: false,
    animation: false,
    plugins: { legend: { position: 'bottom' } },
    ...(round ? {} : { scales: { y: { beginAtZero: true } } }),
  };
  return (
    <div className="dash-chart" data-testid={`card-chart-${card.id}`}>
      {/* The canvas is the image; its label is the chart's data in words for screen readers. */}
      <Chart type={chart.type} data={{ labels, datasets }} options={options} style={{ height: '100%' }} ariaLabel={summary} />
    </div>
  );
}
