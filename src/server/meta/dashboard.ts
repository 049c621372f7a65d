import type { DashboardConfig } from '../../shared/dashboard';
import type { FileProblem } from './watched-json';
import { checkDashboardHindi } from '../../shared/definitions/hindi-portal';

/** Cross-checks of dashboard.json the schema cannot state: unique ids, the right keys for each kind. */
export function checkDashboard(config: DashboardConfig): FileProblem[] {
  const problems: FileProblem[] = [];
  const seen = new Set<string>();
  config.cards.forEach((c, i) => {
    const at = (key: string) => `/cards/${i}/${key}`;
    if (seen.has(c.id)) problems.push({ file: 'dashboard.json', pointer: at('id'), reason: `duplicate card id "${c.id}"` });
    seen.add(c.id);
    if (c.kind === 'stat' && !c.valueField && c.aggregate !== 'count') {
      problems.push({ file: 'dashboard.json', pointer: at('valueField'), reason: 'a stat card needs valueField (or aggregate "count")' });
    }
    if (c.kind === 'stat' && c.chart) problems.push({ file: 'dashboard.json', pointer: at('chart'), reason: 'a stat card has no chart' });
    if (c.kind === 'chart' && !c.chart) problems.push({ file: 'dashboard.json', pointer: at('chart'), reason: 'a chart card needs chart' });
    if (c.kind === 'chart' && c.valueField) problems.push({ file: 'dashboard.json', pointer: at('valueField'), reason: 'a chart card takes its values from chart.series' });
  });
  problems.push(...checkDashboardHindi('dashboard.json', config, config.hi));
  return problems;
}
