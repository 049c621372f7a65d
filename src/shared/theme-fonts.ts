/**
 * PrimeReact's Lara themes load Inter as one variable font of every script Inter covers: 346 KiB upright (and 381 KiB
 * italic), fetched for the first words on screen. On a slow phone that download sat on the sign-in screen's first
 * paint (Lighthouse mobile 79-97 from run to run). The build (vite.config.ts) serves such a theme.css with the same
 * family split by script, as Google Fonts does (@fontsource-variable/inter's faces, each with a unicode-range): a
 * page in English fetches the Latin file alone (47 KiB); Latin Extended (₹ is there) comes when a page shows it.
 * Greek, Cyrillic and Vietnamese, which the portal does not show, are left out (each face costs the sign-in screen's
 * first load bytes): such text falls back to the system sans-serif. Only the opsz axis is lost (the subsets are
 * wght-only); tabular digits (tnum) are kept.
 */

/** One @font-face of the per-script CSS: its woff2 file name and the rule rewritten for the theme. */
export interface SubsetFace {
  file: string;
  rule: string;
}

const FONT_FACE = /@font-face\s*\{[^{}]*\}/g;

/**
 * The faces of a fontsource CSS file (`index.css`, `wght-italic.css`), renamed to `family` and pointing at
 * `${urlPrefix}<file>`. Throws when the file is not the expected shape (a package update that moved things must
 * break the build, not ship a theme without its font).
 */
export function subsetFaces(css: string, family: string, urlPrefix: string, source: string, scripts: readonly string[]): SubsetFace[] {
  const faces = (css.match(FONT_FACE) ?? []).map((rule) => {
    const url = /src:\s*url\(\.\/files\/([A-Za-z0-9._-]+\.woff2)\)/.exec(rule);
    if (!url?.[1] || !/unicode-range:/.test(rule) || !/font-family:/.test(rule)) {
      throw new Error(`${source}: an @font-face without a ./files/*.woff2 source or a unicode-range`);
    }
    const file = url[1];
    const renamed = rule
      .replace(/font-family:[^;]*;/, `font-family: "${family}";`)
      .replace(/url\(\.\/files\/[^)]*\)/, `url("${urlPrefix}${file}")`);
    return { file, rule: renamed };
  });
  if (!faces.some((f) => /U\+0000-00FF/i.test(f.rule))) throw new Error(`${source}: no face covers Latin (U+0000-00FF)`);
  const kept = faces.filter((f) => scripts.includes(scriptOf(f.file)));
  const missing = scripts.filter((sc) => !kept.some((f) => scriptOf(f.file) === sc));
  if (missing.length > 0) throw new Error(`${source}: no face for ${missing.join(', ')}`);
  return kept;
}

/** 'latin-ext' of 'inter-latin-ext-wght-normal.woff2'. */
export function scriptOf(file: string): string {
  return /^[a-z]+-([a-z-]+)-wght-(?:normal|italic)\.woff2$/.exec(file)?.[1] ?? '';
}

/** The family a theme's single-file variable face declares, when it has one (`./fonts/InterVariable.woff2`). */
export function variableFontFamily(themeCss: string): string | undefined {
  for (const rule of themeCss.match(FONT_FACE) ?? []) {
    if (/url\(["']?\.\/fonts\/InterVariable\.woff2["']?\)/.test(rule)) {
      return /font-family:\s*["']?([^"';]+)["']?\s*;/.exec(rule)?.[1];
    }
  }
  return undefined;
}

/**
 * The theme's CSS with its InterVariable faces (upright and italic) replaced by the per-script faces; unchanged for
 * a theme that has none. `upright` and `italic` come from subsetFaces with the theme's family name.
 */
export function withSubsetFaces(themeCss: string, upright: SubsetFace[], italic: SubsetFace[]): string {
  let replaced = 0;
  const out = themeCss.replace(FONT_FACE, (rule) => {
    if (/url\(["']?\.\/fonts\/InterVariable\.woff2["']?\)/.test(rule)) {
      replaced += 1;
      return upright.map((f) => f.rule).join('\n');
    }
    if (/url\(["']?\.\/fonts\/InterVariable-Italic\.woff2["']?\)/.test(rule)) {
      replaced += 1;
      return italic.map((f) => f.rule).join('\n');
    }
    return rule;
  });
  if (replaced === 1) throw new Error('theme.css has only one of the InterVariable faces (upright and italic)');
  return out;
}

/** True for a theme font file the per-script faces replace (the build does not copy it). */
export function isReplacedThemeFont(rel: string): boolean {
  return /^fonts\/InterVariable(-Italic)?\.woff2$/.test(rel);
}
