import { formatCell } from '../../../shared/column-types';
import type { DashboardCard } from '../../../shared/dashboard';
import { statValue, type CardData } from './api';

export function StatBody({ card, data }: { card: DashboardCard; data: CardData }) {
  const value = data.value ?? statValue(card, data.rows);
  const text = formatCell(card.format === 'currency' ? 'currency' : card.format === 'percent' ? 'percent' : 'number', value);
  return (
    <div className="dash-stat">
      <span className="dash-stat-value" data-testid={`card-value-${card.id}`}>
        {text}
      </span>
      {card.caption ? <span className="dash-stat-caption">{card.caption}</span> : null}
    </div>
  );
}
