import { describe, expect, it } from 'vitest';
import { statusTone } from './status-tone';

describe('statusTone', () => {
  it('sets active diagnoses and medications apart (SPEC §4), and an active diagnosis stands out', () => {
    expect(statusTone('diagnosis', 'Active')).toBe('destructive');
    expect(statusTone('medication', 'Active')).not.toBe(statusTone('diagnosis', 'Active'));
    expect(statusTone('medication', 'active')).not.toBe(statusTone('medication', 'Completed'));
  });

  it('gives Resolved one colour, whatever the case', () => {
    expect(statusTone('diagnosis', 'Resolved')).toBe(statusTone('diagnosis', 'resolved'));
    expect(statusTone('diagnosis', 'Resolved')).not.toBe(statusTone('diagnosis', 'Active'));
  });

  it('reads allergy severity as high, medium or other', () => {
    expect(statusTone('allergy', 'Severe')).toBe(statusTone('allergy', 'high'));
    expect(statusTone('allergy', 'Moderate')).toBe(statusTone('allergy', 'medium'));
    expect(statusTone('allergy', 'Mild')).toBe(statusTone('allergy', 'anything else'));
    expect(new Set([statusTone('allergy', 'high'), statusTone('allergy', 'medium'), statusTone('allergy', 'low')]).size).toBe(3);
  });
});
