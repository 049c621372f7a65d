/**
 * Readable primary colours for PrimeReact's themes (WCAG 2 AA, 4.5:1 for text). Several shipped themes miss it:
 * lara-light-indigo's #6366f1 under white button labels is 4.47:1, saga-green's 2.78:1. themes/themes.json gives
 * such a theme an "accessible" entry; the build (vite.config.ts) serves its theme.css rewritten by accessibleThemeCss:
 * the primary colour replaced everywhere (buttons, links, tabs, focus marks) by the accessible one, and where the
 * primary is a background, its label colour replaced too when the theme's own no longer reads on it.
 */

/** An "accessible" entry of themes.json: the readable primary, and the label colour on it if the theme's does not do. */
export interface AccessiblePrimary {
  primary: string;
  primaryText?: string;
}

const HEX = /^#[0-9a-f]{6}$/;

/** '#abc' or '#AABBCC' as '#aabbcc'; undefined for anything else (named colours, rgba()). */
export function normaliseHex(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  const long = /^#[0-9a-f]{3}$/.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v;
  return HEX.test(long) ? long : undefined;
}

/** WCAG 2 relative luminance of an sRGB '#rrggbb' colour. */
export function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two '#rrggbb' colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** The value of a CSS custom property declared in a stylesheet (its first declaration), normalised when a colour. */
export function cssVariable(css: string, name: string): string | undefined {
  const raw = new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1];
  return raw === undefined ? undefined : (normaliseHex(raw) ?? raw.trim());
}

/** Reads a themes.json theme's "accessible" entry; undefined when it has none, an Error message when malformed. */
export function parseAccessiblePrimary(value: unknown): AccessiblePrimary | undefined | string {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '"accessible" must be an object';
  const v = value as Record<string, unknown>;
  if (typeof v.primary !== 'string' || !HEX.test(v.primary)) return '"accessible.primary" must be a #rrggbb colour';
  if (v.primaryText !== undefined && (typeof v.primaryText !== 'string' || !HEX.test(v.primaryText))) return '"accessible.primaryText" must be a #rrggbb colour';
  return v.primaryText === undefined ? { primary: v.primary } : { primary: v.primary, primaryText: v.primaryText };
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The theme's stylesheet with its primary colour made readable. Every spelling of the old primary (#6366F1,
 * #6366f1) becomes fix.primary. With fix.primaryText, each rule that paints the primary as its background gets that
 * label colour in place of the theme's --primary-color-text, and so does the variable.
 */
export function accessibleThemeCss(css: string, fix: AccessiblePrimary | undefined): string {
  if (!fix) return css;
  const oldPrimary = cssVariable(css, 'primary-color');
  const oldText = cssVariable(css, 'primary-color-text');
  if (!oldPrimary || !normaliseHex(oldPrimary)) throw new Error('theme.css declares no --primary-color #rrggbb');
  let out = css.replace(new RegExp(`${escapeRe(oldPrimary)}(?![0-9a-f])`, 'gi'), fix.primary);
  const { primaryText } = fix;
  if (primaryText && oldText && normaliseHex(oldText)) {
    const oldTextRe = new RegExp(`(^|[;{\\s])color:\\s*${escapeRe(oldText)}(?![0-9a-f])`, 'gi');
    const paintsPrimary = new RegExp(`background(?:-color)?:\\s*${escapeRe(fix.primary)}(?![0-9a-f])`, 'i');
    // One declaration block at a time: a label colour changes only where the primary is the block's background.
    out = out.replace(/\{[^{}]*\}/g, (block) => (paintsPrimary.test(block) ? block.replace(oldTextRe, `$1color: ${primaryText}`) : block));
    out = out.replace(new RegExp(`(--primary-color-text:\\s*)${escapeRe(oldText)}`, 'i'), `$1${primaryText}`);
  }
  return out;
}
