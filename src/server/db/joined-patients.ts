// Joined records (issue 24 items 4-7, decision 048): a merged-away patient keeps its row, inactive, with replaced_by
// pointing at the survivor while the join stands (undo clears it). A survivor can itself be joined later, so the
// record a number now belongs to is found by following replaced_by, never more than JOIN_CHAIN_MAX steps. These are
// SQL fragments for the statements that resolve an old number or show a history: each takes a qualified column or a
// bound value (an unqualified `id` would name the fragment's own tables).
import { sql, type SQL } from 'drizzle-orm';

/** The most replaced_by steps followed: a chain longer than this is a fault, and resolution stops there. */
export const JOIN_CHAIN_MAX = 10;

/** The record patient `id` now belongs to: itself when not joined away, else the end of its replaced_by chain. */
export function survivorIdSql(id: SQL): SQL {
  return sql`(WITH RECURSIVE chain(id, next, hops) AS (
                SELECT j0.id, j0.replaced_by, 0 FROM patients AS j0 WHERE j0.id = ${id}
                UNION ALL
                SELECT j1.id, j1.replaced_by, chain.hops + 1 FROM chain JOIN patients AS j1 ON j1.id = chain.next
                 WHERE chain.hops < ${sql.raw(String(JOIN_CHAIN_MAX))})
              SELECT chain.id FROM chain ORDER BY chain.hops DESC LIMIT 1)`;
}

/** As survivorIdSql, without the recursive lookup for the common case (`replacedBy`: the same row's replaced_by). */
export function currentIdSql(id: SQL, replacedBy: SQL): SQL {
  return sql`CASE WHEN ${replacedBy} IS NULL THEN ${id} ELSE ${survivorIdSql(id)} END`;
}

/**
 * Patient `id` and every patient joined into it (live joins, through chains): the ids a history view reads, since
 * audit rows keep the id they were written with. A query of one column `id`, on the partial replaced_by index.
 */
export function linkedIdsSql(id: SQL): SQL {
  return sql`WITH RECURSIVE linked(id, hops) AS (
               SELECT ${id}::int, 0
               UNION ALL
               SELECT l1.id, linked.hops + 1 FROM linked JOIN patients AS l1 ON l1.replaced_by = linked.id
                WHERE linked.hops < ${sql.raw(String(JOIN_CHAIN_MAX))})
             SELECT DISTINCT linked.id FROM linked`;
}

/**
 * Every id of one person: the record `id` belongs to now and every record joined into it (`id` alone when no patient
 * has it). As an int[] expression
 * (`column = ANY(...)` runs it once and keeps the (patient_id, timestamp) index usable).
 */
export function personIdsSql(id: SQL): SQL {
  // An id no patient has (audit rows may name one) is itself.
  return sql`ARRAY(${linkedIdsSql(sql`coalesce(${survivorIdSql(id)}, ${id})`)})`;
}
