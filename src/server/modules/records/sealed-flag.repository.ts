// Whether the clinical row an audit row names is sealed now (the presenter's per-row flag, present.ts), as an SQL
// expression an audit read puts in its own query, so payloads are presented with the live flag in one round trip.
import { sql, type SQL } from 'drizzle-orm';
import { KIND_CONTRACTS, RECORD_KINDS } from '../../../contracts/kinds';
import { serverKind } from './kinds';

/**
 * A boolean SQL expression over an audit row's resource type and resource id columns: whether that clinical row is
 * sealed. False for every other resource and for an id that is not a row id. The id is compared as an integer, so
 * each lookup is one primary-key probe.
 */
export function sealedFlagSql(resourceType: unknown, resourceId: unknown): SQL<boolean> {
  const rowId = sql`(CASE WHEN ${resourceId} ~ '^[1-9][0-9]{0,8}$' THEN (${resourceId})::int END)`;
  const cases = RECORD_KINDS.map((k) => {
    const table = serverKind(k).table;
    return sql`WHEN ${KIND_CONTRACTS[k].resourceType} THEN EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${rowId} AND ${table.sealed})`;
  });
  return sql<boolean>`(CASE ${resourceType} ${sql.join(cases, sql` `)} ELSE false END)`;
}
