// Where generated rows go: COPY streams on PostgreSQL, multi-row inserts on the embedded database.
import type { Cell, ClinicalRows } from '../generator/clinical';

export interface LoadSink {
  write(patients: Cell[][], clinical: ClinicalRows): Promise<void>;
  /** Flushes and commits everything written. */
  finish(): Promise<void>;
  /** Gives up after an error (rows not yet committed are lost). */
  abort(): Promise<void>;
}
