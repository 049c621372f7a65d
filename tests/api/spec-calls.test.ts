import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';

/** Every call of spec section 7 (method, name). Report calls may be served by a definition or a route. */
const SPEC_CALLS: [HTTPMethods, string][] = [
  ['GET', 'captcha'], ['POST', 'loginInfo'], ['POST', 'loginOtpDetails'], ['POST', 'VerifyOtp'], ['POST', 'ResendOtp'],
  ['GET', 'userprofile'], ['POST', 'refreshToken'], ['POST', 'logout'],
  ['POST', 'TrainManningData'], ['GET', 'dropDownRailwayCode'], ['GET', 'getArrayOfTrainNo'], ['GET', 'trainInfo'],
  ['GET', 'Total_Registered_Devices'], ['GET', 'Total_Trains_Manned'], ['GET', 'Device'], ['POST', 'DeviceDetailsWithDeviceId'],
  ['POST', 'UpdateDevice'], ['GET', 'DeviceWithTteCount'], ['GET', 'TteUserIdWithDeviceCount'], ['POST', 'multipleDeviceCount'],
  ['POST', 'multipleDeviceInfo'],
  ['POST', 'trainWorkingReport'], ['POST', 'TWRBeatwise'], ['POST', 'getZeroBooking'], ['POST', 'trainMannedWithHht'],
  ['POST', 'getAllPassengersCombined'], ['POST', 'getNotTurnUpPassengers'], ['POST', 'getTurnUpPassengers'], ['POST', 'getEftReports'],
  ['POST', 'getDropETickit'], ['POST', 'getVacantBerths'], ['POST', 'getReallocationPsgn'], ['POST', 'getAfterChartingCanclled'],
  ['POST', 'chart-load-new'], ['POST', 'Active_Users'], ['POST', 'TteDetails'], ['POST', 'prsRelease'], ['POST', 'UnmannedReport'],
  ['POST', 'classwise-Occupancy'], ['POST', 'coachwise-Occupancy'], ['POST', 'new-Occupancy'], ['POST', 'tdr-details'],
  ['POST', 'onboard-staff'], ['POST', 'onboardSummary'], ['POST', 'trainSchedule'], ['POST', 'coach-deficiency'],
  ['POST', 'CoachDeficiencySummary'], ['POST', 'eft-psgn-report'], ['POST', 'psgn-beatWise'], ['POST', 'getUpgradePsgn'],
  ['POST', 'unmannedMannedAll'], ['POST', 'UnManned_Manned_test'], ['POST', 'coachManningSummary'], ['POST', 'orgToDestDateRange'],
  ['POST', 'dynamic-fare'], ['POST', 'complaintReport'], ['POST', 'AllocationException'], ['POST', 'eftSummary'],
  ['POST', 'tteEftSummary'], ['POST', 'allotmentReport'], ['POST', 'psgnCoachWiseCount'], ['POST', 'tdrSummary'],
  ['POST', 'TteManningReport'], ['POST', 'getSignOnOffId'], ['POST', 'getDigitalPayment'],
  ['POST', 'psgn-count'], ['POST', 'TDRCard'], ['POST', 'psgnCount7days'], ['POST', 'EFTCard'], ['POST', 'RACClearedAndWLCleared'],
  ['POST', 'SUMReleaseCard'],
  ['POST', 'syncDelaySummary'], ['POST', 'SyncDelayDateWise'], ['POST', 'tripId'], ['POST', 'eft-search'],
  ['POST', 'unmanned-report-history'], ['POST', 'dashboard-feedback'], ['POST', 'running-details'], ['POST', 'coachConsist'],
];

describe('the calls of spec section 7', () => {
  let t: TestDb;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDb();
    app = await buildTestApp(t.db);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('are each served by a route of their own or by a report definition with that endpoint and method', () => {
    const missing = SPEC_CALLS.filter(([method, name]) => {
      const view = app.reports.endpoint(name)?.view;
      if (view) return view.method !== method;
      return !app.hasRoute({ method, url: `/api/${name}` });
    });
    expect(missing).toEqual([]);
  });

  it('answer without a session with 403, or 400 for a body checked first: never 404 or 500', async () => {
    const protectedCalls = SPEC_CALLS.filter(([, n]) => !['captcha', 'loginInfo', 'loginOtpDetails', 'VerifyOtp', 'ResendOtp', 'refreshToken'].includes(n));
    const statuses = await Promise.all(
      protectedCalls.map(async ([method, name]) => [name, (await app.inject({ method, url: `/api/${name}`, ...(method === 'POST' ? { payload: {} } : {}) })).statusCode] as const),
    );
    expect(statuses.filter(([, s]) => ![400, 401, 403].includes(s))).toEqual([]);
    expect(statuses.filter(([, s]) => s === 403).length).toBeGreaterThan(protectedCalls.length - 5);
  });
});
