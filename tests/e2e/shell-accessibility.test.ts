import { afterEach, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { SHELL_USER_ID } from '../support/shell';
import { seriousViolations } from '../support/axe';

let b: TestBrowser | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

async function openPanel(): Promise<TestBrowser> {
  b = await launchBrowser({ width: 1280, height: 900 });
  await signIn(b.page, inject('baseUrl'), SHELL_USER_ID);
  await b.page.locator('.layout-menu').waitFor();
  await b.page.getByRole('button', { name: 'Accessibility' }).click();
  await b.page.getByRole('group', { name: 'Accessibility options' }).waitFor();
  return b;
}
const css = (t: TestBrowser, selector: string, prop: string) =>
  t.page.evaluate(([s, p]) => getComputedStyle(document.querySelector(s!)!).getPropertyValue(p!), [selector, prop]);

it('every control has its visible effect, and pressing again undoes it', async () => {
  const t = await openPanel();
  const tile = (name: string) => t.page.getByRole('group', { name: 'Accessibility options' }).getByRole('button', { name, exact: true });
  expect(await seriousViolations(t.page)).toEqual([]);

  await tile('Dark Mode').click();
  expect(await tile('Dark Mode').getAttribute('aria-pressed')).toBe('true');
  expect(await css(t, 'body', 'background-color')).toBe('rgb(15, 17, 21)');
  await tile('Dark Mode').click();
  expect(await css(t, 'body', 'background-color')).not.toBe('rgb(15, 17, 21)');

  await tile('Invert').click();
  expect(await css(t, 'html', 'filter')).toBe('invert(1) hue-rotate(180deg)');
  await tile('Saturation').click();
  expect(await css(t, 'html', 'filter')).toBe('invert(1) hue-rotate(180deg) saturate(0.5)');
  await tile('Invert').click();
  expect(await css(t, 'html', 'filter')).toBe('saturate(0.5)');
  await tile('Saturation').click();
  expect(await css(t, 'html', 'filter')).toBe('none');

  await tile('Highlight Links').click();
  await t.page.locator('.layout-menuitem-link[href]').first().waitFor();
  expect(await css(t, '.layout-menuitem-link[href]', 'text-decoration-line')).toBe('underline');
  expect(await css(t, '.layout-menuitem-link[href]', 'outline-style')).toBe('dashed');

  await tile('Text Spacing').click();
  await t.page.locator('.layout-main h1').first().waitFor(); // the page is loaded lazily
  const fontPx = parseFloat(await css(t, '.layout-main h1', 'font-size'));
  expect(parseFloat(await css(t, '.layout-main h1', 'letter-spacing'))).toBeCloseTo(fontPx * 0.12, 1);
  await tile('Line Height').click();
  await t.page.locator('.layout-main p').first().waitFor();
  const p = parseFloat(await css(t, '.layout-main p', 'font-size'));
  expect(parseFloat(await css(t, '.layout-main p', 'line-height'))).toBeCloseTo(p * 1.8, 1);

  await tile('Dyslexia Friendly').click();
  expect(await css(t, '.layout-main p', 'font-family')).toContain('OpenDyslexic');
  await expect.poll(() => t.page.evaluate(() => document.fonts.check('16px OpenDyslexic'))).toBe(true);

  await tile('Screen Reader').click();
  const dialog = t.page.getByRole('dialog', { name: 'Screen Reader' });
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain('screen reader');
  await t.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
});

it('A+, A- and A step the root font size by 2 px around the scale, clamped to 12-20 px', async () => {
  const t = await openPanel();
  const px = () => css(t, 'html', 'font-size');
  const group = t.page.getByRole('group', { name: 'Accessibility options' });
  expect(await px()).toBe('14px');
  await group.getByRole('button', { name: 'A+ Larger' }).click();
  expect(await px()).toBe('16px');
  expect(await group.getByRole('button', { name: 'A+ Larger' }).isDisabled()).toBe(true);
  await group.getByRole('button', { name: 'A- Smaller' }).click();
  await group.getByRole('button', { name: 'A- Smaller' }).click();
  expect(await px()).toBe('12px');
  await group.getByRole('button', { name: 'A Normal' }).click();
  expect(await px()).toBe('14px');
  // clamp: scale 12 with A- stays at 12
  await t.page.evaluate(() => document.documentElement.style.setProperty('--layout-scale', '12px'));
  await group.getByRole('button', { name: 'A- Smaller' }).click();
  expect(await px()).toBe('12px');
});

it('flags persist and apply before the first render after a reload', async () => {
  const t = await openPanel();
  const group = t.page.getByRole('group', { name: 'Accessibility options' });
  await group.getByRole('button', { name: 'Invert', exact: true }).click();
  await group.getByRole('button', { name: 'Line Height', exact: true }).click();
  await group.getByRole('button', { name: 'A+ Larger' }).click();
  // Record <html>'s classes at the moment the app first puts anything into #root.
  await t.context.addInitScript(() => {
    const w = window as unknown as { __firstPaint?: { classes: string; fontPx: string } };
    new MutationObserver((_m, obs) => {
      const root = document.getElementById('root');
      if (root && root.childElementCount > 0 && !w.__firstPaint) {
        w.__firstPaint = { classes: document.documentElement.className, fontPx: getComputedStyle(document.documentElement).fontSize };
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await t.page.reload();
  await t.page.locator('.layout-menu').waitFor();
  const first = await t.page.evaluate(() => (window as unknown as { __firstPaint?: { classes: string; fontPx: string } }).__firstPaint);
  expect(first?.classes).toContain('a11y-invert');
  expect(first?.classes).toContain('a11y-line-height');
  expect(first?.fontPx).toBe('16px');
});
