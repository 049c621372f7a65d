/**
 * Every theme of the settings panel, as the build serves it (themes.json's "accessible" primary applied), reads at
 * WCAG AA: the primary as text (links, outlined and text buttons) on the theme's card surface and on its ground (the
 * grid's striped rows), and button labels on the primary, at 4.5:1 or more.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accessibleThemeCss, contrastRatio, cssVariable, normaliseHex, parseAccessiblePrimary } from '../../src/shared/theme-contrast';

interface ThemeEntry {
  id: string;
  accessible?: unknown;
}
const doc = JSON.parse(readFileSync('themes/themes.json', 'utf8')) as { groups: { themes: ThemeEntry[] }[] };
const entries = doc.groups.flatMap((g) => g.themes);

function served(t: ThemeEntry): string {
  const fix = parseAccessiblePrimary(t.accessible);
  if (typeof fix === 'string') throw new Error(`${t.id}: ${fix}`);
  return accessibleThemeCss(readFileSync(`node_modules/primereact/resources/themes/${t.id}/theme.css`, 'utf8'), fix);
}

/** The colours a rule of the stylesheet sets, found by its exact selector list. */
function rule(css: string, selector: string): { color?: string; background?: string } {
  const at = css.indexOf(`\n  ${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const block = css.slice(at, css.indexOf('}', at));
  const pick = (re: RegExp): string | undefined => {
    const v = re.exec(block)?.[1];
    return v === undefined ? undefined : normaliseHex(v);
  };
  return { color: pick(/[\s;]color:\s*([^;]+);/), background: pick(/background(?:-color)?:\s*([^;]+);/) };
}

describe('theme contrast (WCAG AA 4.5:1), all themes as served', () => {
  it('the panel has its 34 themes', () => {
    expect(entries).toHaveLength(34);
  });

  it.each(entries.map((t) => [t.id, t] as const))('%s: primary text on the card, labels on the primary', (_id, t) => {
    const css = served(t);
    const primary = cssVariable(css, 'primary-color') ?? '';
    const label = cssVariable(css, 'primary-color-text') ?? '';
    const surface = cssVariable(css, 'surface-card') ?? '';
    const ratios = {
      primaryOnCard: contrastRatio(primary, surface),
      primaryOnGround: contrastRatio(primary, cssVariable(css, 'surface-ground') ?? ''),
      labelOnPrimary: contrastRatio(label, primary),
    };
    const button = rule(css, '.p-button');
    const outlined = rule(css, '.p-button.p-button-outlined');
    const text = rule(css, '.p-button.p-button-text');
    const all = {
      ...ratios,
      button: contrastRatio(button.color ?? '', button.background ?? ''),
      outlinedOnCard: contrastRatio(outlined.color ?? '', surface),
      textButtonOnCard: contrastRatio(text.color ?? '', surface),
    };
    for (const [what, r] of Object.entries(all)) expect(r, `${t.id} ${what} ${r.toFixed(2)}`).toBeGreaterThanOrEqual(4.5);
  });

  it('a fix is needed where given: without it, the theme as shipped fails', () => {
    for (const t of entries.filter((e) => e.accessible !== undefined)) {
      const shipped = readFileSync(`node_modules/primereact/resources/themes/${t.id}/theme.css`, 'utf8');
      const p = cssVariable(shipped, 'primary-color') ?? '';
      const worst = Math.min(
        contrastRatio(p, cssVariable(shipped, 'surface-card') ?? ''),
        contrastRatio(p, cssVariable(shipped, 'surface-ground') ?? ''),
        contrastRatio(p, cssVariable(shipped, 'primary-color-text') ?? ''),
      );
      expect(worst, t.id).toBeLessThan(4.5);
    }
  });
});

describe('accessibleThemeCss', () => {
  const css = [
    ':root { --primary-color: #6366f1; --primary-color-text: #ffffff; }',
    '.p-button { color: #ffffff; background: #6366F1; border: 1px solid #6366f1; }',
    '.p-button.p-button-text { color: #6366F1; }',
    '.p-card { color: #ffffff; background: #1f2d40; }',
    '.p-badge { background-color: #6366f1aa; }',
  ].join('\n');

  it('replaces every spelling of the primary, and nothing longer', () => {
    const out = accessibleThemeCss(css, { primary: '#4f46e5' });
    expect(out).not.toMatch(/#6366f1(?![0-9a-f])/i);
    expect(out).toContain('.p-button { color: #ffffff; background: #4f46e5; border: 1px solid #4f46e5; }');
    expect(out).toContain('#6366f1aa');
  });

  it('changes the label colour only where the primary is the background', () => {
    const out = accessibleThemeCss(css, { primary: '#c27acf', primaryText: '#121212' });
    expect(out).toContain('.p-button { color: #121212; background: #c27acf;');
    expect(out).toContain('.p-card { color: #ffffff; background: #1f2d40; }');
    expect(cssVariable(out, 'primary-color-text')).toBe('#121212');
  });

  it('leaves a theme without a fix as shipped, and refuses malformed entries', () => {
    expect(accessibleThemeCss(css, undefined)).toBe(css);
    expect(parseAccessiblePrimary({ primary: 'indigo' })).toMatch(/accessible.primary/);
    expect(parseAccessiblePrimary({ primary: '#4f46e5', primaryText: 1 })).toMatch(/primaryText/);
    expect(parseAccessiblePrimary(undefined)).toBeUndefined();
  });

  it('computes WCAG ratios: white on black 21, lara indigo under white 4.47', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#6366f1')).toBeCloseTo(4.47, 2);
  });
});
