// Versions, entered in error, idempotent adds and the delta read (issue 23 items 1-3; decision 041). Shared by the
// server's routes and the client:
// - an edit (PATCH /api/<kind>/{id}) names the version it was made from in `If-Match` (`3`, `"3"` or `W/"3"`): none is
//   428 VERSION_REQUIRED, another than the stored one 409 VERSION_CONFLICT whose body carries `current` (the stored
//   row) and `changed` (the fields changed since), beside `code` and `message`; answers carry `ETag: "<version>"`;
// - DELETE /api/<kind>/{id} marks the row entered in error, with an optional `reason` (the client always asks);
// - an add (POST /api/patients/{id}/<kind>) may carry `Idempotency-Key: <uuid>`: the same add sent again answers
//   what the first did, without a second row or audit row; the same key with another body is 409
//   IDEMPOTENCY_KEY_REUSED;
// - GET /api/<kind>/{id}/history lists every version of one row, oldest first;
// - GET /api/patients/{id}/changes?since=<cursor> lists the rows created, edited or marked entered in error since
//   the cursor (every row without one), and the cursor to ask from next time.
import { z } from 'zod';
import { RECORD_KINDS, type RecordKind, type RecordRows } from './kinds';
import { safeString } from './fields';

export const IF_MATCH = 'if-match';
export const ETAG = 'etag';
export const IDEMPOTENCY_KEY = 'idempotency-key';
/** Set on an add's answer that repeats an earlier one (the same Idempotency-Key and body). */
export const IDEMPOTENT_REPLAYED = 'idempotent-replayed';

/** The version an If-Match header names, or null when it names none (missing or not a version). */
export function versionOfIfMatch(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^\s*(?:W\/)?"?([1-9]\d{0,8})"?\s*$/.exec(value ?? '');
  return m ? Number(m[1]) : null;
}
export const etagOf = (version: number): string => `"${version}"`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An Idempotency-Key is a UUID the client made for this one add. */
export const isIdempotencyKey = (v: string): boolean => UUID.test(v);

export const ENTERED_IN_ERROR_REASON_MAX = 500;
/** DELETE /api/<kind>/{id}: why the entry was wrong (optional for SPEC's bodiless DELETE; the client asks for one). */
export const enteredInErrorBody = z
  .strictObject({
    reason: safeString('validation:reasonInvalid')
      .trim()
      .max(ENTERED_IN_ERROR_REASON_MAX, { error: 'validation:tooLong' })
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .nullish()
  .transform((v) => ({ reason: v?.reason ?? null }));

/** 409 VERSION_CONFLICT's body (beside code and message): the row as stored now and the fields changed since the version the edit named. */
export interface VersionConflict<Row = unknown> {
  current: Row;
  changed: string[];
}

export const HISTORY_ACTIONS = ['created', 'edited', 'entered-in-error'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** One version of a row: what was done, when, by whom, which fields it changed, and the row as it then was. */
export const historyEntry = <Row extends z.ZodType>(row: Row) =>
  z.object({
    version: z.number().int(),
    action: z.enum(HISTORY_ACTIONS),
    /** ISO 8601 UTC; null for the first version of a row stored before versions existed. */
    at: z.string().nullable(),
    by: z.string().nullable(),
    changed: z.array(z.string()),
    row,
  });
export type HistoryEntry<K extends RecordKind> = {
  version: number;
  action: HistoryAction;
  at: string | null;
  by: string | null;
  changed: string[];
  row: RecordRows[K];
};

export const CURSOR_MAX = 200;
/** GET /api/patients/{id}/changes: `since` is a cursor an earlier answer gave; none reads every row. */
export const changesQuery = z.object({
  since: z
    .string()
    .max(CURSOR_MAX, { error: 'validation:cursorInvalid' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation:cursorInvalid' })
    .optional(),
});

/** One changed row: `state` says whether it is current or entered in error; `withheld` rows carry no content. */
export const CHANGE_STATES = ['current', 'entered-in-error', 'withheld'] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];

export const changesResponse = z.object({
  cursor: z.string(),
  changes: z.array(
    z.object({
      kind: z.enum(RECORD_KINDS as [RecordKind, ...RecordKind[]]),
      uuid: z.string(),
      id: z.number().int(),
      version: z.number().int(),
      state: z.enum(CHANGE_STATES),
      /** The row (any kind's shape; `kind` says which); null when withheld. */
      row: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
export type ChangesResponse = z.infer<typeof changesResponse>;
