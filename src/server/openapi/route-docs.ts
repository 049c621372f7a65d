import { DEVICE_STATUSES } from '../../shared/devices';
import { arr, body, bool, enumOf, errorAnswer, int, nullable, num, obj, otherContent, str, type RouteDoc, type Schema } from './schema-helpers';
import { SYNC_REQUEST, SYNC_RESPONSE } from './hht-sync-doc';
import { SUBSCRIPTION_ROUTE_DOCS } from '../subscriptions/route-docs';
import { FRESHNESS_DOC, SAVED_VIEW_DOCS } from './saved-view-docs';

export type { RouteDoc };

const E400 = errorAnswer('Bad input: `fields` names each field at fault');
const E401 = otherContent('Access token expired (refresh once and retry) or session superseded (text body "Session invalid or superseded")', {
  'text/plain': str(),
  'application/json': { type: 'object' },
});
const E403 = errorAnswer('No valid session, no XSRF token on a change, or not allowed at the user\'s level or scope');
const E404 = errorAnswer('Not found (or outside the user\'s scope)');
const E409 = errorAnswer('Conflict with the current state');
const E429 = errorAnswer('Too many requests from this address or for this account; retry later');
const E503 = errorAnswer('Unavailable now (database down, too many exports, a broken definition)');
const officer = (r: Record<string, Schema>): Record<string, Schema> => ({ ...r, 401: E401, 403: E403 });

const codeMessage = obj({ code: int('Outcome code of the original backend'), message: str('Text shown to the user') });
const device = obj({
  deviceId: str(), serialNo: str(), imei: str(), make: str(), model: str(), appVersion: str(),
  status: enumOf(DEVICE_STATUSES), zoneCode: str(), divCode: str(), lobbyCode: str(),
  assignedTteId: nullable(str()), assignedTteName: nullable(str()), registeredOn: str(), lastSyncAt: nullable(str()),
});
const deviceIdBody = body({ deviceId: str('Device id, e.g. HHT00012') }, ['deviceId']);
const reportAnswer = obj({
  rows: arr({ type: 'object', additionalProperties: true }, 'The rows: one object per row, keys are the definition\'s column fields'),
  total: int('Rows the filter gives (all pages)'),
  page: int(),
  rowsPerPage: int(),
  freshness: FRESHNESS_DOC,
}, ['freshness']);

/** Every route of the API by "METHOD url" (Fastify's pattern); the OpenAPI test fails on a route missing here. */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  ...SAVED_VIEW_DOCS,
  'GET /api/health': {
    summary: 'Whether the server and its database answer; with a session also migrations, data set size and replicas',
    tags: ['Operations'],
    response: {
      200: obj({ status: enumOf(['ok']), database: { type: 'object' }, dataset: { type: 'object' }, replicas: arr({ type: 'object' }) }, ['database', 'dataset', 'replicas']),
      401: E401, 403: E403,
      503: obj({ status: enumOf(['unavailable']) }),
    },
  },
  'GET /api/openapi.json': {
    summary: 'This document (public; with an officer token also an example sync batch of this server\'s data)', tags: ['Operations'],
    response: { 200: { description: 'The OpenAPI 3.1 document', type: 'object', additionalProperties: true }, 401: E401, 403: E403 },
  },
  'GET /api/captcha': {
    summary: 'A new picture captcha (single use, expires); sets the XSRF-TOKEN cookie', tags: ['Sign-in'],
    response: { 200: obj({ captchaId: str(), imageDataUrl: str('data:image/svg+xml;base64,...') }), 429: E429 },
  },
  'POST /api/loginInfo': {
    summary: 'Password step: user id and password (AES-encrypted), captcha; success opens the OTP step', tags: ['Sign-in'],
    response: { 200: obj({ code: int('1 ok; other codes: wrong captcha, wrong credentials, locked, inactive'), message: str(), loginFlag: bool() }), 400: E400, 429: E429 },
  },
  'POST /api/loginOtpDetails': {
    summary: 'Sends the SMS OTP to the user\'s mobile (after the password step)', tags: ['Sign-in'],
    response: { 200: codeMessage, 400: E400, 429: E429 },
  },
  'POST /api/ResendOtp': {
    summary: 'Sends a new OTP (30 s after the first, then every 60 s)', tags: ['Sign-in'],
    response: { 200: codeMessage, 400: E400, 429: E429 },
  },
  'POST /api/VerifyOtp': {
    summary: 'Checks the OTP; success starts the session (one live session per user) and answers the tokens', tags: ['Sign-in'],
    response: { 200: obj({ code: int(), message: str(), accessToken: str('Bearer token, short-lived'), refreshToken: str('Rotating refresh token') }, ['accessToken', 'refreshToken']), 400: E400, 429: E429 },
  },
  'POST /api/refreshToken': {
    summary: 'New token pair for the refresh token in Authorization (rotation; reuse ends the session)', tags: ['Sign-in'],
    response: { 200: obj({ accessToken: str(), refreshToken: str() }), 401: E401, 403: E403 },
  },
  'POST /api/logout': {
    summary: 'Ends the session', tags: ['Sign-in'], security: 'officer',
    response: officer({ 200: codeMessage, 400: E400 }),
  },
  'GET /api/userprofile': {
    summary: 'The signed-in user\'s profile, AES-encrypted', tags: ['Sign-in'], security: 'officer',
    response: officer({ 200: obj({ encryptedProfile: str() }) }),
  },
  'POST /api/TrainManningData': {
    summary: 'Trains of a zone, division or lobby within the user\'s scope', tags: ['Lookups'], security: 'officer',
    response: officer({ 200: { description: 'Trains', type: ['array', 'object'] }, 400: E400 }),
  },
  'POST /api/test-hooks/clock': {
    summary: 'Test hooks only (HHT_TEST_HOOKS=1, refused in production): moves the server clock', tags: ['Test hooks'],
    response: { 200: obj({ offsetMs: num(), now: str() }), 400: E400, 404: E404 },
  },
  'POST /api/test-hooks/audit': {
    summary: 'Test hooks only: turns this process\'s audit trail on or off (the cost bench)', tags: ['Test hooks'],
    response: { 200: obj({ enabled: bool(), pid: int() }), 400: E400 },
  },
  'GET /api/test-hooks/captcha/{captchaId}': {
    summary: 'Test hooks only: a captcha\'s answer', tags: ['Test hooks'],
    response: { 200: obj({ answer: str() }), 404: E404 },
  },
  'GET /api/test-hooks/otp/{userId}': {
    summary: 'Test hooks only: the last OTP sent to a user', tags: ['Test hooks'],
    response: { 200: obj({ otp: str() }), 404: E404 },
  },
  'GET /api/meta/menu': {
    summary: 'The side menu (menu.json) in the user\'s language, unavailable reports marked', tags: ['Meta'], security: 'officer',
    response: officer({ 200: obj({ entries: arr({ type: 'object', additionalProperties: true }) }) }),
  },
  'POST /api/running-details': {
    summary: 'A train\'s stations and current position on a date', tags: ['Lookups'], security: 'officer',
    response: officer({ 200: obj({ vStationList: arr({ type: 'object', additionalProperties: true }), trainCurrentPosition: nullable({ type: 'object' }) }), 400: E400 }),
  },
  'GET /api/dropDownRailwayCode': {
    summary: 'Zones, divisions and offices within the user\'s scope (filter drop-downs)', tags: ['Lookups'], security: 'officer',
    response: officer({ 200: arr(obj({ id: obj({ rly_Code: str(), div_Code: str(), off_Code: str() }), rlyName: str(), divName: str(), offName: str() })) }),
  },
  'POST /api/export/{reportId}': {
    summary: 'Every row of a report\'s filter as a CSV, XLSX or PDF file, streamed, up to the format\'s cap', tags: ['Reports'], security: 'officer',
    params: { type: 'object', required: ['reportId'], properties: { reportId: str('Report id (file name in reports/)') } },
    querystring: {
      type: 'object',
      required: ['format'],
      properties: {
        format: enumOf(['csv', 'xlsx', 'pdf']),
        tab: str('Tab id of a report with tabs'),
        columns: str('Comma-separated column fields, in order (default: the visible columns)'),
        sortBy: str('A sortable column field'),
        sortDir: enumOf(['asc', 'desc']),
      },
    },
    body: { type: 'object', description: 'The report\'s filter (its definition\'s filter schema)', additionalProperties: true },
    response: officer({
      200: otherContent('The file; header X-Total-Rows gives the row count', {
        'text/csv': str(), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { type: 'string', contentEncoding: 'binary' },
        'application/pdf': { type: 'string', contentEncoding: 'binary' },
      }),
      400: E400, 404: E404, 503: E503,
    }),
  },
  'GET /api/meta/dashboard': {
    summary: 'The dashboard\'s cards (dashboard.json) in the user\'s language', tags: ['Meta'], security: 'officer',
    response: officer({ 200: obj({ cards: arr({ type: 'object', additionalProperties: true }) }) }),
  },
  'GET /api/meta/whatsnew': {
    summary: 'Release notes', tags: ['Meta'], security: 'officer',
    response: officer({ 200: obj({ releases: arr({ type: 'object', additionalProperties: true }) }) }),
  },
  'GET /api/Device': {
    summary: 'Devices within the user\'s scope: search, status filter, paging', tags: ['Devices'], security: 'officer',
    response: officer({ 200: obj({ rows: arr(device), total: int(), page: int(), rowsPerPage: int() }), 400: E400 }),
  },
  'POST /api/DeviceDetailsWithDeviceId': {
    summary: 'One device: details, use history, change audit, whether the user may change it', tags: ['Devices'], security: 'officer',
    response: officer({ 200: obj({ device, history: arr({ type: 'object', additionalProperties: true }), audit: arr({ type: 'object', additionalProperties: true }), canEdit: bool(), assignableTtes: arr({ type: 'object', additionalProperties: true }) }), 400: E400, 404: E404 }),
  },
  'POST /api/UpdateDevice': {
    summary: 'Changes a device\'s status, assigned TTE and remarks (device admins; optimistic version)', tags: ['Devices'], security: 'officer',
    response: officer({ 200: obj({ message: str(), device }), 400: E400, 404: E404, 409: E409 }),
  },
  'GET /api/DeviceWithTteCount': {
    summary: 'Devices with the number of TTEs who used each', tags: ['Devices'], security: 'officer',
    response: officer({ 200: arr(obj({ deviceId: str(), serialNo: str(), status: enumOf(DEVICE_STATUSES), divCode: str(), lobbyCode: str(), tteCount: int(), lastUsedOn: nullable(str()) })) }),
  },
  'GET /api/TteUserIdWithDeviceCount': {
    summary: 'TTEs with the number of devices each used', tags: ['Devices'], security: 'officer',
    response: officer({ 200: arr(obj({ tteId: str(), tteName: str(), lobbyCode: str(), divCode: str(), deviceCount: int() })) }),
  },
  'POST /api/multipleDeviceCount': {
    summary: 'TTEs who used more than one device on a date', tags: ['Devices'], security: 'officer',
    response: officer({ 200: obj({ startDate: str(), rows: arr(obj({ tteId: str(), tteName: str(), lobbyCode: str(), deviceCount: int() })) }), 400: E400 }),
  },
  'POST /api/multipleDeviceInfo': {
    summary: 'The devices one TTE used on a date', tags: ['Devices'], security: 'officer',
    response: officer({ 200: obj({ tteId: str() }), 400: E400 }),
  },
  'POST /api/hht/credentials/status': {
    summary: 'Whether a device has an active sync credential', tags: ['Device sync'], security: 'officer',
    body: deviceIdBody,
    response: officer({ 200: { type: 'object', additionalProperties: true, description: 'Credential status' }, 400: E400, 404: E404 }),
  },
  'POST /api/hht/credentials/issue': {
    summary: 'Issues a device\'s sync credential (device admins); the token is shown once', tags: ['Device sync'], security: 'officer',
    response: officer({ 200: obj({ deviceId: str(), token: str('43 characters, base64url; send as Authorization: Bearer <token>'), message: str() }), 400: E400, 404: E404 }),
  },
  'POST /api/hht/credentials/revoke': {
    summary: 'Revokes a device\'s sync credential (device admins)', tags: ['Device sync'], security: 'officer',
    response: officer({ 200: obj({ message: str() }), 400: E400, 404: E404, 409: E409 }),
  },
  'POST /api/hht/sync': {
    summary: 'A terminal\'s batch of records: all or nothing, idempotent by batch id and record id', tags: ['Device sync'], security: 'device',
    body: SYNC_REQUEST,
    response: {
      200: SYNC_RESPONSE,
      400: errorAnswer('The batch is refused whole and nothing is stored: `fields` names each record and field, e.g. records[1].psgnId (at most 50)'),
      401: errorAnswer('No credential, or an unknown or revoked one'),
      403: errorAnswer('The device is LOST or WITHDRAWN and may not sync'),
      413: errorAnswer('Body over the limit (5,000 records, about 5 MB)'),
      429: E429,
    },
  },
  'POST /api/dashboard-feedback': {
    summary: 'Sends feedback (category, rating, message)', tags: ['Meta'], security: 'officer',
    response: officer({ 200: obj({ id: str('e.g. FB-000042'), message: str(), submittedAt: str() }), 400: E400, 429: E429 }),
  },
  'POST /api/coachConsist': {
    summary: 'A run\'s coach composition', tags: ['Lookups'], security: 'officer',
    response: officer({ 200: obj({ trainNo: str(), startDate: str(), trainEvent: str(), coaches: arr(obj({ seq: int(), coachId: str(), class: str(), capacity: int() })) }), 400: E400, 404: E404, 503: E503 }),
  },
  'GET /api/getArrayOfTrainNo': {
    summary: 'Train numbers within the user\'s scope', tags: ['Lookups'], security: 'officer',
    response: officer({ 200: arr(str()) }),
  },
  'GET /api/meta/reports': {
    summary: 'The report catalogue: every definition, broken ones marked unavailable with the reason', tags: ['Reports'], security: 'officer',
    response: officer({ 200: obj({ reports: arr(obj({ id: str(), title: str(), description: str(), status: enumOf(['ok', 'unavailable']), reason: str() }, ['description', 'reason'])) }) }),
  },
  'GET /api/meta/reports/{id}': {
    summary: 'One report definition as the browser gets it (no SQL), in the user\'s language', tags: ['Reports'], security: 'officer',
    params: { type: 'object', required: ['id'], properties: { id: str() } },
    response: officer({ 200: obj({ id: str(), title: str(), endpoint: str(), filter: { type: 'object' }, columns: arr({ type: 'object' }), exportCaps: { type: 'object' } }), 404: E404, 503: E503 }),
  },
  'GET /api/filter-validators/{file}': {
    summary: 'The compiled validator module of a filter schema (named by its SHA-256)', tags: ['Reports'],
    params: { type: 'object', required: ['file'], properties: { file: str('<43 base64url characters>.js') } },
    response: { 200: otherContent('JavaScript module', { 'text/javascript': str() }), 404: E404 },
  },
  'POST /api/{endpoint}': {
    summary: 'Runs a report (any endpoint of the catalogue; each is also listed on its own path below) with its filter', tags: ['Reports'], security: 'officer',
    params: { type: 'object', required: ['endpoint'], properties: { endpoint: str('A report\'s endpoint') } },
    querystring: {
      type: 'object',
      properties: { sortBy: str(), sortDir: enumOf(['asc', 'desc']), page: str('1..'), rowsPerPage: str('1..'), aggregate: str('count or sum:<column>') },
    },
    body: { type: 'object', description: 'The report\'s filter', additionalProperties: true },
    response: officer({ 200: reportAnswer, 400: E400, 404: E404, 503: E503 }),
  },
  'GET /api/{endpoint}': {
    summary: 'Runs a report whose definition says GET, the filter in the query string', tags: ['Reports'], security: 'officer',
    params: { type: 'object', required: ['endpoint'], properties: { endpoint: str() } },
    querystring: {
      type: 'object',
      description: 'The filter fields of the report\'s definition, and these',
      properties: { sortBy: str(), sortDir: enumOf(['asc', 'desc']), page: str('1..'), rowsPerPage: str('1..') },
    },
    response: officer({ 200: reportAnswer, 400: E400, 404: E404, 503: E503 }),
  },
  ...SUBSCRIPTION_ROUTE_DOCS,
};

export const REPORT_ANSWER = reportAnswer;
export const OFFICER_REFUSALS = { 400: E400, 401: E401, 403: E403, 503: E503 };
