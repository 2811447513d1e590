// Test data shared by the contracts' and the client's tests (not imported by the app): the version fields of a row.
import type { VersionedRow } from './versioned';

/** The version fields of a row stored once and never changed. */
export const v1: VersionedRow = {
  uuid: '00000000-0000-4000-8000-000000000001',
  version: 1,
  updatedAt: '2025-01-01T00:00:00.000Z',
  updatedBy: 'Dr. Shikongo',
  enteredInErrorAt: null,
  enteredInErrorBy: null,
  enteredInErrorReason: null,
};
