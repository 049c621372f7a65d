/** The saved_views table (migration 032): rows in and out, nothing about who may see them (routes/saved-views.ts). */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db';
import type { SavedViewState } from '../../shared/saved-views';

export interface ViewRow {
  view_id: string;
  owner_id: string;
  report_id: string;
  name: string;
  shared: boolean;
  state: SavedViewState;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'view_id, owner_id, report_id, name, shared, state, created_at, updated_at';

/** 16 characters of base64url: a link names one view and cannot be guessed from another. */
export const newViewId = (): string => randomBytes(12).toString('base64url');

/** The user's own views and every shared view (the routes keep those of reports the user may open). */
export async function viewsVisibleTo(db: Queryable, userId: string): Promise<ViewRow[]> {
  const { rows } = await db.query<ViewRow>(
    `SELECT ${COLUMNS} FROM saved_views WHERE owner_id = $1 OR shared ORDER BY updated_at DESC, view_id`,
    [userId],
  );
  return rows;
}

export async function viewById(db: Queryable, viewId: string): Promise<ViewRow | undefined> {
  return (await db.query<ViewRow>(`SELECT ${COLUMNS} FROM saved_views WHERE view_id = $1`, [viewId])).rows[0];
}

export async function insertView(
  db: Queryable,
  v: { viewId: string; ownerId: string; reportId: string; name: string; shared: boolean; state: SavedViewState; at: Date },
): Promise<ViewRow> {
  const { rows } = await db.query<ViewRow>(
    `INSERT INTO saved_views (view_id, owner_id, report_id, name, shared, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7) RETURNING ${COLUMNS}`,
    [v.viewId, v.ownerId, v.reportId, v.name, v.shared, JSON.stringify(v.state), v.at.toISOString()],
  );
  const row = rows[0];
  if (!row) throw new Error('saved view insert returned no row');
  return row;
}

/** Renames and/or (un)shares a view of this owner; undefined when the owner has no such view. */
export async function updateView(
  db: Queryable,
  viewId: string,
  ownerId: string,
  change: { name?: string | undefined; shared?: boolean | undefined },
  at: Date,
): Promise<ViewRow | undefined> {
  const { rows } = await db.query<ViewRow>(
    `UPDATE saved_views SET name = coalesce($3, name), shared = coalesce($4, shared), updated_at = $5
      WHERE view_id = $1 AND owner_id = $2 RETURNING ${COLUMNS}`,
    [viewId, ownerId, change.name ?? null, change.shared ?? null, at.toISOString()],
  );
  return rows[0];
}

export async function deleteView(db: Queryable, viewId: string, ownerId: string): Promise<ViewRow | undefined> {
  return (await db.query<ViewRow>(`DELETE FROM saved_views WHERE view_id = $1 AND owner_id = $2 RETURNING ${COLUMNS}`, [viewId, ownerId])).rows[0];
}
