// The server side of every record kind, listed once (issue 22 item 1), in the record's order (contracts/kinds).
import type { RecordKind } from '../../../../contracts/kinds';
import { allergiesKind } from './allergies';
import { appointmentsKind } from './appointments';
import { diagnosesKind } from './diagnoses';
import { labResultsKind } from './lab-results';
import { medicationsKind } from './medications';
import type { ServerKind } from './server-kind';
import { vaccinesKind } from './vaccines';
import { vitalsKind } from './vitals';

export const SERVER_KINDS: { [K in RecordKind]: ServerKind<K> } = {
  diagnoses: diagnosesKind,
  appointments: appointmentsKind,
  allergies: allergiesKind,
  medications: medicationsKind,
  vaccines: vaccinesKind,
  vitals: vitalsKind,
  'lab-results': labResultsKind,
};

/** A kind's server side, widened: for code that handles every kind alike. */
export const serverKind = (kind: RecordKind): ServerKind<RecordKind> => SERVER_KINDS[kind] as unknown as ServerKind<RecordKind>;

/** Every kind's table, for the schema checks and drizzle-kit (drizzle.config.ts lists this folder). */
export const RECORD_TABLES = Object.values(SERVER_KINDS).map((k) => k.table);
