import { describe, expect, it } from 'vitest';
import { FORM_FIELDS, formDefaults } from './record-fields';

describe('add dialog defaults (SPEC §4)', () => {
  it('starts on Active, Scheduled, Mild and Active; everything else blank', () => {
    expect(formDefaults('diagnoses').status).toBe('Active');
    expect(formDefaults('appointments').status).toBe('Scheduled');
    expect(formDefaults('allergies').severity).toBe('Mild');
    expect(formDefaults('medications').status).toBe('Active');
    expect(formDefaults('vaccines')).toEqual(Object.fromEntries(FORM_FIELDS.vaccines.map((f) => [f.name, ''])));
  });
});
