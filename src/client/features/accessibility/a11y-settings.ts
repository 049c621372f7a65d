/** Accessibility panel settings (spec sections 2, 3, 4, 9): pure logic, storage and how they apply to <html>. */

export type FontStep = 0 | 1 | 2;

export interface A11ySettings {
  dark: boolean;
  invert: boolean;
  saturation: boolean;
  highlightLinks: boolean;
  textSpacing: boolean;
  lineHeight: boolean;
  cursor: boolean;
  fontStep: FontStep;
  dyslexicFont: boolean;
}

export type A11yFlag = Exclude<keyof A11ySettings, 'fontStep'>;

export const DEFAULT_A11Y: A11ySettings = {
  dark: false,
  invert: false,
  saturation: false,
  highlightLinks: false,
  textSpacing: false,
  lineHeight: false,
  cursor: false,
  fontStep: 1,
  dyslexicFont: false,
};

export const A11Y_STORAGE_KEY = 'hht.accessibility';
export const FONT_STEPS: readonly FontStep[] = [0, 1, 2];
/** Offsets in px from the base size for steps 0, 1, 2. */
export const FONT_STEP_OFFSETS: Record<FontStep, number> = { 0: -2, 1: 0, 2: 2 };
export const MIN_FONT_PX = 12;
export const MAX_FONT_PX = 20;
export const TEXT_SPACING = '0.12em';
export const LINE_HEIGHT = 1.8;
export const SATURATION = 0.5;

/** Class put on <html> for each flag (see accessibility.css). */
export const FLAG_CLASSES: Record<A11yFlag, string> = {
  dark: 'a11y-dark',
  invert: 'a11y-invert',
  saturation: 'a11y-saturation',
  highlightLinks: 'a11y-highlight-links',
  textSpacing: 'a11y-text-spacing',
  lineHeight: 'a11y-line-height',
  cursor: 'a11y-big-cursor',
  dyslexicFont: 'a11y-dyslexic',
};

export const FLAGS = Object.keys(FLAG_CLASSES) as A11yFlag[];

export function fontOffset(step: FontStep): number {
  return FONT_STEP_OFFSETS[step];
}

/** The root font size for a base size (the layout scale) and a step, clamped to 12-20 px. */
export function effectiveFontPx(basePx: number, step: FontStep): number {
  return Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, basePx + fontOffset(step)));
}

/** A+ : one step larger (at most 2). A- : one step smaller (at least 0). A : back to normal (1). */
export function stepUp(step: FontStep): FontStep {
  return step === 0 ? 1 : 2;
}
export function stepDown(step: FontStep): FontStep {
  return step === 2 ? 1 : 0;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Settings from storage, each field checked: anything malformed falls back to its default. */
export function parseA11y(value: unknown): A11ySettings {
  if (!isRecord(value)) return DEFAULT_A11Y;
  const out: A11ySettings = { ...DEFAULT_A11Y };
  for (const f of FLAGS) {
    const v = value[f];
    if (typeof v === 'boolean') out[f] = v;
  }
  const step = value.fontStep;
  if (step === 0 || step === 1 || step === 2) out.fontStep = step;
  return out;
}

export function loadA11y(storage: Pick<Storage, 'getItem'>): A11ySettings {
  try {
    const text = storage.getItem(A11Y_STORAGE_KEY);
    return text === null ? DEFAULT_A11Y : parseA11y(JSON.parse(text));
  } catch {
    return DEFAULT_A11Y;
  }
}

export function saveA11y(storage: Pick<Storage, 'setItem'>, s: A11ySettings): void {
  try {
    storage.setItem(A11Y_STORAGE_KEY, JSON.stringify(s));
  } catch {
    // storage unavailable: the settings still apply for this page
  }
}

let dyslexicFaces: Promise<unknown> | null = null;

/** OpenDyslexic's @font-face rules (and so its files) load only once the option is on, not with every first load. */
function loadDyslexicFont(): void {
  dyslexicFaces ??= Promise.all([import('@fontsource/opendyslexic/400.css'), import('@fontsource/opendyslexic/700.css')]).catch(() => {
    dyslexicFaces = null; // try again the next time the settings apply
  });
}

/** Puts the settings on <html>: one class per flag and the font offset variable used by the root font size. */
export function applyA11y(s: A11ySettings, root: HTMLElement = document.documentElement): void {
  for (const f of FLAGS) root.classList.toggle(FLAG_CLASSES[f], s[f]);
  root.style.setProperty('--a11y-font-offset', `${fontOffset(s.fontStep)}px`);
  if (s.dyslexicFont) loadDyslexicFont();
}

/** Before the first render (main.tsx): apply what local storage holds, so a reload shows no flash. */
export function applyStoredA11y(): void {
  applyA11y(loadA11y(localStorage));
}
