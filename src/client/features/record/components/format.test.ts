import { describe, expect, it } from 'vitest';
import { formatDate } from './format';
import { FORM_FIELDS, formDefaults } from './record-fields';

describe('record dates (SPEC §2: en-GB)', () => {
  it('shows YYYY-MM-DD as dd/MM/yyyy without any time-zone shift', () => {
    expect(formatDate('2025-01-31')).toBe('31/01/2025');
    expect(formatDate(null)).toBe('-');
  });
});

describe('add dialog defaults (SPEC §4)', () => {
  it('starts on Active, Scheduled, Mild and Active; everything else blank', () => {
    expect(formDefaults('diagnoses').status).toBe('Active');
    expect(formDefaults('appointments').status).toBe('Scheduled');
    expect(formDefaults('allergies').severity).toBe('Mild');
    expect(formDefaults('medications').status).toBe('Active');
    expect(formDefaults('vaccines')).toEqual(Object.fromEntries(FORM_FIELDS.vaccines.map((f) => [f.name, ''])));
  });
});
