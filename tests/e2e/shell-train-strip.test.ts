import { afterEach, expect, inject, it } from 'vitest';
import type { Route } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { signIn } from '../support/login';
import { SHELL_USER_ID } from '../support/shell';

let b: TestBrowser | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

const STATIONS = ['NEW DELHI (NDLS)', 'KOTA JN (KOTA)', 'RATLAM JN (RTM)', 'VADODARA JN (BRC)', 'SURAT (ST)', 'MUMBAI CENTRAL (MMCT)'];
function body(current: number | null, position: { currentPosition: string; lastStationName: string; nextPTTStationName: string }) {
  return {
    vStationList: STATIONS.map((stationName, i) => ({ stationName, STA: '10:00', STD: '10:05', ETA: '10:10', ETD: '10:15', isHighlighted: i === current })),
    trainCurrentPosition: position,
  };
}
const SCENES = {
  notStarted: body(0, { currentPosition: 'Yet to start from its source', lastStationName: '', nextPTTStationName: STATIONS[0]! }),
  running: body(3, { currentPosition: 'Departed from VADODARA JN (BRC) at 04:10', lastStationName: STATIONS[3]!, nextPTTStationName: STATIONS[4]! }),
  finished: body(5, { currentPosition: 'Arrived at its destination MUMBAI CENTRAL (MMCT)', lastStationName: STATIONS[5]!, nextPTTStationName: '' }),
};

/** Controlled answers of /api/running-details: a queue of responses, and the requests seen. */
async function openWith(answers: (unknown | 'fail')[]) {
  b = await launchBrowser({ width: 1400, height: 800 });
  const t = b;
  await t.page.clock.install();
  const requests: { trainNo: string; startDate: string }[] = [];
  let last: unknown = answers[0];
  await t.page.route('**/api/running-details', async (route: Route) => {
    requests.push(route.request().postDataJSON());
    const next = answers.length ? answers.shift() : last;
    last = next;
    if (next === 'fail') await route.fulfill({ status: 500, json: { error: 'Internal', message: 'x' } });
    else await route.fulfill({ json: next });
  });
  await signIn(t.page, inject('baseUrl'), SHELL_USER_ID);
  await t.page.locator('.layout-menu').waitFor();
  return { t, requests };
}
const strip = (t: TestBrowser) => t.page.getByTestId('train-strip');
const shown = (t: TestBrowser) =>
  t.page.locator('.train-strip-station').evaluateAll((els) =>
    els.map((e) => `${e.querySelector('.train-strip-name')?.textContent}${e.getAttribute('aria-current') ? '*' : ''}`),
  );

it('yet to start: first station highlighted; the first train by default for today', async () => {
  const { t, requests } = await openWith([SCENES.notStarted]);
  await strip(t).waitFor();
  expect(await shown(t)).toEqual(['NEW DELHI (NDLS)*', 'KOTA JN (KOTA)', 'MUMBAI CENTRAL (MMCT)']);
  expect(await strip(t).innerText()).toContain('Yet to start from its source');
  const trains = await t.page.getByLabel('Train for the running strip').locator('option').allTextContents();
  expect(requests[0]?.trainNo).toBe(trains[0]);
  expect(requests[0]?.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

it('running: first, stations around the current one (highlighted), last; refreshes every 120 s; finished highlights the last', async () => {
  const { t, requests } = await openWith([SCENES.running, SCENES.finished]);
  await strip(t).waitFor();
  expect(await shown(t)).toEqual(['NEW DELHI (NDLS)', 'RATLAM JN (RTM)', 'VADODARA JN (BRC)*', 'SURAT (ST)', 'MUMBAI CENTRAL (MMCT)']);
  const n = requests.length;
  await t.page.clock.fastForward(119_000);
  expect(requests.length).toBe(n);
  await t.page.clock.fastForward(2_000);
  await expect.poll(() => requests.length).toBe(n + 1);
  await expect.poll(() => shown(t)).toEqual(['NEW DELHI (NDLS)', 'SURAT (ST)', 'MUMBAI CENTRAL (MMCT)*']);
});

it('a failed or empty fetch clears the strip', async () => {
  const { t } = await openWith([SCENES.running, 'fail', SCENES.running, { vStationList: [], trainCurrentPosition: null }]);
  await strip(t).waitFor();
  await t.page.clock.fastForward(121_000);
  await strip(t).waitFor({ state: 'detached' });
  await t.page.clock.fastForward(121_000);
  await strip(t).waitFor();
  await t.page.clock.fastForward(121_000);
  await strip(t).waitFor({ state: 'detached' });
});

it('the chosen train is used and persists across a reload', async () => {
  const { t, requests } = await openWith([SCENES.running]);
  await strip(t).waitFor();
  const select = t.page.getByLabel('Train for the running strip');
  const second = (await select.locator('option').allTextContents())[1];
  expect(second).toBeDefined(); // the test user needs at least two trains
  await select.selectOption(second!);
  await expect.poll(() => requests.at(-1)?.trainNo).toBe(second);
  await t.page.reload();
  await t.page.locator('.layout-menu').waitFor();
  await expect.poll(() => requests.at(-1)?.trainNo).toBe(second);
  expect(await select.inputValue()).toBe(second);
});
