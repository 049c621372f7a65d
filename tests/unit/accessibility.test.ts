// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  A11Y_STORAGE_KEY,
  applyA11y,
  DEFAULT_A11Y,
  effectiveFontPx,
  fontOffset,
  LINE_HEIGHT,
  loadA11y,
  parseA11y,
  SATURATION,
  saveA11y,
  stepDown,
  stepUp,
  TEXT_SPACING,
} from '../../src/client/features/accessibility/a11y-settings';
import { readFileSync } from 'node:fs';

describe('font step (spec section 4)', () => {
  it('steps 0, 1 (default), 2 give -2, 0, +2 px', () => {
    expect(DEFAULT_A11Y.fontStep).toBe(1);
    expect([0, 1, 2].map((s) => fontOffset(s as 0 | 1 | 2))).toEqual([-2, 0, 2]);
  });

  it('A+ and A- move one step and stop at the ends', () => {
    expect([stepUp(0), stepUp(1), stepUp(2)]).toEqual([1, 2, 2]);
    expect([stepDown(2), stepDown(1), stepDown(0)]).toEqual([1, 0, 0]);
  });

  it('clamps the result to 12-20 px', () => {
    expect(effectiveFontPx(14, 2)).toBe(16);
    expect(effectiveFontPx(12, 0)).toBe(12);
    expect(effectiveFontPx(13, 0)).toBe(12);
    expect(effectiveFontPx(19, 2)).toBe(20);
  });

  it('the CSS clamps the root font size the same way', () => {
    const css = readFileSync('src/client/app/global.css', 'utf8');
    expect(css).toContain('clamp(12px, calc(var(--layout-scale, 14px) + var(--a11y-font-offset, 0px)), 20px)');
  });
});

describe('spec values in the stylesheet', () => {
  it('uses text spacing 0.12em, line height 1.8 and saturation 0.5', () => {
    const css = readFileSync('src/client/features/accessibility/accessibility.css', 'utf8');
    expect([TEXT_SPACING, LINE_HEIGHT, SATURATION]).toEqual(['0.12em', 1.8, 0.5]);
    expect(css).toContain('letter-spacing: 0.12em');
    expect(css).toContain('line-height: 1.8');
    expect(css).toContain('saturate(0.5)');
  });
});

describe('storage', () => {
  it('round-trips and validates every field', () => {
    const s = { ...DEFAULT_A11Y, dark: true, fontStep: 2 as const, dyslexicFont: true };
    saveA11y(localStorage, s);
    expect(loadA11y(localStorage)).toEqual(s);
    localStorage.setItem(A11Y_STORAGE_KEY, JSON.stringify({ dark: 'yes', invert: true, fontStep: 7 }));
    expect(loadA11y(localStorage)).toEqual({ ...DEFAULT_A11Y, invert: true });
    localStorage.setItem(A11Y_STORAGE_KEY, '{not json');
    expect(loadA11y(localStorage)).toEqual(DEFAULT_A11Y);
    expect(parseA11y([true])).toEqual(DEFAULT_A11Y);
  });
});

describe('applying to <html>', () => {
  it('sets one class per flag and the font offset variable, and removes them again', () => {
    const root = document.documentElement;
    applyA11y({ ...DEFAULT_A11Y, dark: true, invert: true, saturation: true, highlightLinks: true, textSpacing: true, lineHeight: true, dyslexicFont: true, cursor: true, fontStep: 0 }, root);
    expect([...root.classList].sort()).toEqual([
      'a11y-big-cursor', 'a11y-dark', 'a11y-dyslexic', 'a11y-highlight-links', 'a11y-invert', 'a11y-line-height', 'a11y-saturation', 'a11y-text-spacing',
    ]);
    expect(root.style.getPropertyValue('--a11y-font-offset')).toBe('-2px');
    applyA11y(DEFAULT_A11Y, root);
    expect([...root.classList]).toEqual([]);
    expect(root.style.getPropertyValue('--a11y-font-offset')).toBe('0px');
  });
});
