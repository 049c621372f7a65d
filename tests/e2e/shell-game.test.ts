import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { SHELL_USER_ID } from '../support/shell';

let t: TestBrowser;
beforeAll(async () => {
  t = await launchBrowser({ width: 1280, height: 900 });
  await signIn(t.page, inject('baseUrl'), SHELL_USER_ID);
  await t.page.locator('.layout-menu').waitFor();
});
afterAll(async () => {
  await t?.close();
});

const label = () => t.page.getByRole('button', { name: 'v2.1.0' });
const canvas = () => t.page.locator('.footer-game canvas');
const overlay = () => t.page.locator('.footer-game-overlay');

it('shows the credits, the version label and the release name', async () => {
  const footer = t.page.locator('.layout-footer');
  expect(await footer.innerText()).toMatch(/Development Team/);
  expect(await footer.innerText()).toContain('Kanchenjunga');
  await label().waitFor();
});

it('two clicks, or three spread over more than 1.2 s, do not open the game', async () => {
  await label().click();
  await label().click();
  await t.page.waitForTimeout(1300);
  await label().click();
  expect(await canvas().count()).toBe(0);
  await t.page.waitForTimeout(1300);
});

it('three clicks within 1.2 s open the game; a round with pause, resume and back to footer', async () => {
  // One burst of three clicks: separate clicks can take over 1.2 s on a loaded machine.
  await label().click({ clickCount: 3 });
  await canvas().waitFor();
  const box = await canvas().boundingBox();
  expect(box!.width).toBeLessThanOrEqual(760);
  expect(Math.abs(box!.height - 200)).toBeLessThanOrEqual(12);
  expect(await overlay().innerText()).toBe('Get Ready!');
  const bar = t.page.locator('.footer-game-bar');
  expect(await bar.innerText()).toMatch(/Score:\s*0\s*Best:\s*0\s*Lives:\s*3/);
  await overlay().waitFor({ state: 'detached' });

  await canvas().focus();
  await t.page.keyboard.press('ArrowLeft');
  await expect.poll(() => t.page.getByTestId('game-score').innerText()).not.toBe('0');
  await t.page.keyboard.press('p');
  expect(await overlay().innerText()).toBe('Paused');
  const paused = await t.page.getByTestId('game-score').innerText();
  await t.page.waitForTimeout(500);
  expect(await t.page.getByTestId('game-score').innerText()).toBe(paused);
  await t.page.getByRole('button', { name: 'Resume' }).waitFor();
  await canvas().click();
  await overlay().waitFor({ state: 'detached' });
  await t.page.getByRole('button', { name: 'Pause' }).click();
  expect(await overlay().innerText()).toBe('Paused');
  await t.page.getByRole('button', { name: 'Resume' }).click();
  await overlay().waitFor({ state: 'detached' });
  await t.page.keyboard.press('d');

  await t.page.getByRole('button', { name: 'Back to Footer' }).click();
  expect(await canvas().count()).toBe(0);
  await label().waitFor();
  // reopened: the best score was kept only while it was open
  await label().click();
  await label().click();
  await label().click();
  await canvas().waitFor();
  expect(await t.page.getByTestId('game-best').innerText()).toBe('0');
  expect(t.errors).toEqual([]);
});
