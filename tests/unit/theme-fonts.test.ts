/**
 * The Lara themes' Inter, split by script for the build (src/shared/theme-fonts.ts): the real theme.css and the real
 * @fontsource-variable/inter CSS, as vite.config.ts combines them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isReplacedThemeFont, scriptOf, subsetFaces, variableFontFamily, withSubsetFaces } from '../../src/shared/theme-fonts';

const INTER = 'node_modules/@fontsource-variable/inter';
const theme = (id: string): string => readFileSync(`node_modules/primereact/resources/themes/${id}/theme.css`, 'utf8');
const SCRIPTS = ['latin', 'latin-ext'];
const faces = (file: string, scripts = SCRIPTS) => subsetFaces(readFileSync(`${INTER}/${file}`, 'utf8'), 'Inter var', '../inter/', file, scripts);

describe('Inter split by script', () => {
  it('finds the family of the Lara themes and none in a theme without the variable font', () => {
    expect(variableFontFamily(theme('lara-light-indigo'))).toBe('Inter var');
    expect(variableFontFamily(theme('saga-blue'))).toBeUndefined();
  });

  it('replaces both InterVariable faces by per-script faces of the same family, each file shipped by the package', () => {
    const upright = faces('index.css');
    const italic = faces('wght-italic.css');
    const css = withSubsetFaces(theme('lara-light-indigo'), upright, italic);
    expect(css).not.toMatch(/InterVariable/);
    const rules = css.match(/@font-face\s*\{[^{}]*\}/g) ?? [];
    expect(rules).toHaveLength(upright.length + italic.length);
    expect(rules).toHaveLength(4); // Latin and Latin Extended, upright and italic
    for (const r of rules) {
      expect(r).toContain('font-family: "Inter var";');
      expect(r).toMatch(/unicode-range:/);
      const file = /url\("\.\.\/inter\/([^"]+)"\)/.exec(r)?.[1];
      expect(file && existsSync(`${INTER}/files/${file}`)).toBe(true);
    }
    // English text needs one file of about 47 KiB, not the 346 KiB of every script.
    const latin = upright.find((f) => /unicode-range: U\+0000-00FF,/.test(f.rule));
    expect(latin?.file).toBe('inter-latin-wght-normal.woff2');
    expect(readFileSync(`${INTER}/files/${latin?.file ?? ''}`).length).toBeLessThan(60_000);
    expect(rules.filter((r) => /font-style: italic/.test(r))).toHaveLength(italic.length);
    // The rest of the theme is untouched.
    expect(css.replace(/@font-face\s*\{[^{}]*\}\n?/g, '')).toBe(theme('lara-light-indigo').replace(/@font-face\s*\{[^{}]*\}\n?/g, ''));
  });

  it('leaves a theme without the variable font as it is, and refuses a package CSS of another shape', () => {
    expect(withSubsetFaces(theme('saga-blue'), faces('index.css'), faces('wght-italic.css'))).toBe(theme('saga-blue'));
    expect(() => subsetFaces('@font-face { font-family: X; src: url(x.woff2); }', 'Inter var', '../inter/', 'x.css', SCRIPTS)).toThrow(/x\.css/);
    expect(() => subsetFaces('', 'Inter var', '../inter/', 'empty.css', SCRIPTS)).toThrow(/Latin/);
    expect(() => faces('index.css', ['latin', 'klingon'])).toThrow(/no face for klingon/);
  });

  it('keeps the scripts asked for, and tells the script of a file', () => {
    expect(faces('index.css').map((f) => f.file)).toEqual(['inter-latin-ext-wght-normal.woff2', 'inter-latin-wght-normal.woff2']);
    expect(faces('wght-italic.css', ['latin']).map((f) => f.file)).toEqual(['inter-latin-wght-italic.woff2']);
    expect(scriptOf('inter-cyrillic-ext-wght-italic.woff2')).toBe('cyrillic-ext');
    expect(scriptOf('inter-latin-opsz-normal.woff2')).toBe('');
  });

  it('drops only the replaced font files from the copy', () => {
    expect(isReplacedThemeFont('fonts/InterVariable.woff2')).toBe(true);
    expect(isReplacedThemeFont('fonts/InterVariable-Italic.woff2')).toBe(true);
    expect(isReplacedThemeFont('fonts/Inter-Regular.woff2')).toBe(false);
    expect(isReplacedThemeFont('theme.css')).toBe(false);
  });
});
