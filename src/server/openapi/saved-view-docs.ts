/** The OpenAPI words for saved views (routes/saved-views.ts) and a report answer's freshness (reports/freshness.ts). */
import { SAVED_VIEW_STATE_SCHEMA } from '../../shared/saved-views';
import { arr, bool, enumOf, errorAnswer, int, nullable, obj, otherContent, str, type Schema } from './schema-helpers';

const refusals = {
  400: errorAnswer('Bad input: `fields` names each field at fault'),
  401: otherContent('Access token expired (refresh once and retry) or session superseded', { 'text/plain': str(), 'application/json': { type: 'object' } }),
  403: errorAnswer('No valid session, or no XSRF token on a change'),
  404: errorAnswer('No such view open to the user: not theirs, not shared, or of a report their level may not open (only the owner may change a view)'),
};

const view = obj({
  viewId: str('16 characters; the link /layout/uikit/<reportId>?_view=<viewId> opens it'),
  reportId: str(),
  reportTitle: nullable(str('In the request\'s language; null when the report no longer exists')),
  name: str(),
  shared: bool('Shared with everyone who may open the report (each still sees only their own scope)'),
  ownerId: str(),
  mine: bool('Whether the signed-in user owns it'),
  state: { ...SAVED_VIEW_STATE_SCHEMA, additionalProperties: true } as Schema,
  createdAt: str(),
  updatedAt: str(),
  problem: nullable({
    type: 'object',
    description: 'Why the view cannot open as saved: report_missing, report_unavailable (with reason), filter_invalid (with fields)',
    properties: { code: enumOf(['report_missing', 'report_unavailable', 'filter_invalid']), reason: str(), fields: arr(obj({ field: str(), reason: str() })) },
    required: ['code'],
  }),
});

/** `freshness` of a report answer (absent for reports whose definition says basis "none"). */
export const FRESHNESS_DOC: Schema = obj(
  {
    asOf: nullable(str('Latest record terminals synced for the runs the answer covers (ISO 8601); null when none has')),
    computedAt: str('When the answer was computed; an answer held by the result cache also has an Age header (seconds)'),
    staleAfterMinutes: int('A beat on duty with no sync for longer than this is stale'),
    beats: arr(
      obj({ beatNo: int(), tteId: str(), deviceId: nullable(str()), lastSyncAt: nullable(str()), lagMinutes: nullable(int()), onDuty: bool(), stale: bool() }),
      'One train run only (a filter naming one train and one date): each beat, in order',
    ),
  },
  ['beats'],
);

export const SAVED_VIEW_DOCS = {
  'GET /api/saved-views': {
    summary: 'The user\'s saved views and views shared for reports their level may open, newest first', tags: ['Saved views'], security: 'officer' as const,
    response: { 200: obj({ views: arr(view) }), 401: refusals[401], 403: refusals[403] },
  },
  'POST /api/saved-views': {
    summary: 'Saves a view of a report (its filter must be one the report accepts now)', tags: ['Saved views'], security: 'officer' as const,
    response: { 201: view, 400: refusals[400], 401: refusals[401], 403: refusals[403] },
  },
  'GET /api/saved-views/{viewId}': {
    summary: 'One view, with the reason it cannot open as saved, if any', tags: ['Saved views'], security: 'officer' as const,
    response: { 200: view, ...refusals },
  },
  'PATCH /api/saved-views/{viewId}': {
    summary: 'Renames a view or changes its sharing (owner only)', tags: ['Saved views'], security: 'officer' as const,
    response: { 200: view, ...refusals },
  },
  'DELETE /api/saved-views/{viewId}': {
    summary: 'Deletes a view (owner only)', tags: ['Saved views'], security: 'officer' as const,
    response: { 204: otherContent('Deleted (no body)', { 'text/plain': str() }), ...refusals },
  },
};
