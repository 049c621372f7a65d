import { arr, bool, enumOf, errorAnswer, int, nullable, num, obj, otherContent, str, type RouteDoc, type Schema } from '../openapi/schema-helpers';
import { SEND_STATUSES, SUBSCRIPTION_FORMATS, SUBSCRIPTION_FREQUENCIES, SUBSCRIPTION_TARGETS } from '../../shared/subscriptions';

const E400 = errorAnswer('Bad input: `fields` names each field at fault');
const E401 = otherContent('Access token expired (refresh once and retry) or session superseded', { 'text/plain': str(), 'application/json': { type: 'object' } });
const E403 = errorAnswer('No valid session, no XSRF token on a change, or the report is not allowed at the user\'s level');
const E404 = errorAnswer('No such subscription of the signed-in officer (or no such report)');
const E503 = errorAnswer('E-mail subscriptions are off: HHT_SMTP_URL is not set');
const officer = (r: Record<string, Schema>): Record<string, Schema> => ({ ...r, 401: E401, 403: E403 });
const html = (d: string): Schema => otherContent(d, { 'text/html': str() });

const send = obj({
  id: int(), dueAt: str('The send time it was due at (ISO)'), status: enumOf(SEND_STATUSES), attempts: int(),
  nextAttemptAt: nullable(str('When a pending or retried send is tried next')), rows: nullable(int()), bytes: nullable(int()),
  linked: bool('The file was over HHT_MAIL_MAX_MB: the mail carried a link to the report instead'),
  reason: nullable(str('Why it was skipped or failed, or the last error of one being retried')), finishedAt: nullable(str()),
});
const subscription = obj({
  id: int(), target: enumOf(SUBSCRIPTION_TARGETS), reportId: nullable(str()), title: str(), tab: nullable(str()),
  filters: { type: 'object', additionalProperties: true, description: 'Filter values; a date may be $today, $today-1, $today-7 or $today-30' },
  format: enumOf(SUBSCRIPTION_FORMATS), lang: enumOf(['en', 'hi']), frequency: enumOf(SUBSCRIPTION_FREQUENCIES),
  weekday: nullable(int('1 = Monday .. 7 = Sunday')), time: str('HH:MM, India time'), paused: bool(), nextDueAt: str(), createdAt: str(),
  lastSend: nullable(send),
});
const email = obj({ email: nullable(str()) });

/** The e-mail subscription routes in the OpenAPI document (merged into ROUTE_DOCS). */
export const SUBSCRIPTION_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/profile/email': {
    summary: 'The signed-in officer\'s e-mail address (where subscriptions are mailed)', tags: ['Profile'], security: 'officer',
    response: officer({ 200: email }),
  },
  'PUT /api/profile/email': {
    summary: 'Sets (or clears, with null) the signed-in officer\'s e-mail address', tags: ['Profile'], security: 'officer',
    response: officer({ 200: email, 400: E400 }),
  },
  'GET /api/subscriptions/status': {
    summary: 'Whether e-mail subscriptions are on, the officer\'s address and the attachment size limit', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 200: obj({ enabled: bool(), email: nullable(str()), maxMb: num() }) }),
  },
  'GET /api/subscriptions': {
    summary: 'The signed-in officer\'s subscriptions, each with its latest send', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 200: arr(subscription) }),
  },
  'POST /api/subscriptions': {
    summary: 'Subscribes to a report (its filters, tab, columns and order) or the dashboard (PDF), daily or weekly at an India time', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 201: subscription, 400: E400, 404: E404, 503: E503 }),
  },
  'PATCH /api/subscriptions/{id}': {
    summary: 'Pauses or resumes a subscription (resumed, it sends from its next time after now)', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 200: subscription, 400: E400, 404: E404 }),
  },
  'DELETE /api/subscriptions/{id}': {
    summary: 'Deletes a subscription and its delivery history', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 200: obj({ id: int(), deleted: { type: 'boolean', const: true } }), 400: E400, 404: E404 }),
  },
  'GET /api/subscriptions/{id}/sends': {
    summary: 'A subscription\'s delivery history, latest first (at most 100)', tags: ['Subscriptions'], security: 'officer',
    response: officer({ 200: arr(send), 400: E400, 404: E404 }),
  },
  'GET /api/mail/unsubscribe': {
    summary: 'The unsubscribe link of a subscription mail (no sign-in; t = signed token): a page in English and Hindi with a confirm button', tags: ['Subscriptions'],
    querystring: { type: 'object', properties: { t: str('The signed token from the mail') } },
    response: { 200: html('Confirmation page'), 404: html('The link is not valid or the subscription is gone') },
  },
  'POST /api/mail/unsubscribe': {
    summary: 'Deletes the subscription the token names (the page\'s button, or a mail program\'s one-click List-Unsubscribe-Post)', tags: ['Subscriptions'],
    querystring: { type: 'object', properties: { t: str('The signed token from the mail') } },
    response: { 200: html('Unsubscribed'), 404: html('The link is not valid or the subscription is gone') },
  },
};
