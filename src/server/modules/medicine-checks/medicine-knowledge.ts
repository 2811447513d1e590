// The medicine-check knowledge this process loaded at start (decision 043), process-wide like the audit payload key:
// the records kinds' checks read it, the health endpoint and GET /api/medicine-checks/status report it. Until it is
// loaded, and whenever it failed to load, it is unavailable with a reason: a check then warns, never passes.
import type { MedicineChecksStatus } from '../../../contracts/medicine-checks';
import { KnowledgeFileError, readMedicineKnowledge, type MedicineKnowledge } from './knowledge-files';

export type KnowledgeState = { available: true; knowledge: MedicineKnowledge } | { available: false; problem: string };

let state: KnowledgeState = { available: false, problem: 'not loaded' };

/** Reads and checks the knowledge files of `dir` (buildApp calls it with config.medicineKnowledgeDir). */
export function loadMedicineKnowledge(dir: string): KnowledgeState {
  try {
    state = { available: true, knowledge: readMedicineKnowledge(dir) };
  } catch (err) {
    // A KnowledgeFileError names the file and line; anything else is reported without its details.
    state = { available: false, problem: err instanceof KnowledgeFileError ? err.message : 'the knowledge files could not be read' };
  }
  return state;
}

export const medicineKnowledgeState = (): KnowledgeState => state;

/** What the health endpoint and the status route answer. */
export function medicineChecksStatusNow(): MedicineChecksStatus {
  return state.available
    ? { available: true, version: state.knowledge.version, problem: null }
    : { available: false, version: null, problem: state.problem };
}
