/**
 * The `hi` blocks of menu.json and dashboard.json: keys that name nothing (errors, like any definition error) and
 * English texts without Hindi (listed by `npm run check:definitions` as warnings). Shapes: see hindi.ts.
 */
import type { DashboardConfig } from '../dashboard';
import type { MenuDocument } from '../menu';
import type { DashboardHindi, HindiProblem, MenuHindi } from './hindi';

const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every label of a menu with its pointer and the key its Hindi takes. */
function menuTexts(doc: MenuDocument): { pointer: string; label: string; group: keyof MenuHindi; key: string }[] {
  const out: { pointer: string; label: string; group: keyof MenuHindi; key: string }[] = [];
  const leaf = (e: MenuDocument['entries'][number], pointer: string): void => {
    if (e.type === 'item') out.push({ pointer: `${pointer}/label`, label: e.label, group: 'items', key: e.path });
    else if (e.type === 'command') out.push({ pointer: `${pointer}/label`, label: e.label, group: 'commands', key: e.command });
  };
  doc.entries.forEach((e, i) => {
    if (e.type === 'section') {
      out.push({ pointer: `/entries/${i}/label`, label: e.label, group: 'sections', key: e.label });
      e.items.forEach((it, j) => leaf(it, `/entries/${i}/items/${j}`));
    } else {
      leaf(e, `/entries/${i}`);
    }
  });
  return out;
}

export function checkMenuHindi(file: string, doc: MenuDocument, hi: MenuHindi | undefined): HindiProblem[] {
  const texts = menuTexts(doc);
  const out: HindiProblem[] = [];
  const what = { sections: 'section label', items: 'item path', commands: 'command' } as const;
  for (const group of ['sections', 'items', 'commands'] as const) {
    for (const key of Object.keys(hi?.[group] ?? {})) {
      if (!texts.some((t) => t.group === group && t.key === key)) {
        out.push({ file, pointer: `/hi/${group}/${seg(key)}`, reason: `names no ${what[group]} of the menu: "${key}"` });
      }
    }
  }
  return out;
}

export function missingMenuHindi(file: string, doc: MenuDocument, hi: MenuHindi | undefined): HindiProblem[] {
  return menuTexts(doc)
    .filter((t) => !hi?.[t.group]?.[t.key])
    .map((t) => ({ file, pointer: t.pointer, reason: `no Hindi for "${t.label}" (/hi/${t.group}/${seg(t.key)})` }));
}

export function checkDashboardHindi(file: string, config: DashboardConfig, hi: DashboardHindi | undefined): HindiProblem[] {
  const out: HindiProblem[] = [];
  for (const [id, h] of Object.entries(hi?.cards ?? {})) {
    const at = `/hi/cards/${seg(id)}`;
    const card = config.cards.find((c) => c.id === id);
    if (!card) {
      out.push({ file, pointer: at, reason: `names no card: "${id}" is not a card id` });
      continue;
    }
    if (h.caption !== undefined && card.caption === undefined) out.push({ file, pointer: `${at}/caption`, reason: `card "${id}" has no English caption to translate` });
    for (const field of Object.keys(h.series ?? {})) {
      if (!card.chart?.series.some((s) => s.field === field)) {
        out.push({ file, pointer: `${at}/series/${seg(field)}`, reason: `card "${id}" has no chart series "${field}"` });
      }
    }
  }
  return out;
}

export function missingDashboardHindi(file: string, config: DashboardConfig, hi: DashboardHindi | undefined): HindiProblem[] {
  const out: HindiProblem[] = [];
  config.cards.forEach((c, i) => {
    const h = hi?.cards?.[c.id];
    const at = `/hi/cards/${seg(c.id)}`;
    if (!h?.title) out.push({ file, pointer: `/cards/${i}/title`, reason: `no Hindi for "${c.title}" (${at}/title)` });
    if (c.caption !== undefined && !h?.caption) out.push({ file, pointer: `/cards/${i}/caption`, reason: `no Hindi for "${c.caption}" (${at}/caption)` });
    c.chart?.series.forEach((s, j) => {
      if (!h?.series?.[s.field]) out.push({ file, pointer: `/cards/${i}/chart/series/${j}/label`, reason: `no Hindi for "${s.label}" (${at}/series/${seg(s.field)})` });
    });
  });
  return out;
}
