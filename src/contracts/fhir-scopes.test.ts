import { describe, expect, it } from 'vitest';
import { parseFhirScope, scopesAllow } from './fhir-scopes';

describe('FHIR scopes', () => {
  it('parse the SMART v1 grammar for the types this API serves, and nothing else', () => {
    expect(parseFhirScope('patient/*.read')).toEqual({ context: 'patient', type: '*', access: 'read' });
    expect(parseFhirScope('system/Observation.write')).toEqual({ context: 'system', type: 'Observation', access: 'write' });
    expect(parseFhirScope('user/Condition.*')).toEqual({ context: 'user', type: 'Condition', access: '*' });
    for (const bad of ['patient/*.delete', 'patient/Encounter.read', 'admin/*.read', 'patient/*.read ', '*.read', '', 'launch/patient']) {
      expect(parseFhirScope(bad)).toBeNull();
    }
  });

  it('allow exactly what a scope names', () => {
    expect(scopesAllow(['patient/Condition.read'], 'Condition', 'read')).toBe(true);
    expect(scopesAllow(['patient/Condition.read'], 'AllergyIntolerance', 'read')).toBe(false);
    expect(scopesAllow(['patient/Condition.read'], 'Condition', 'write')).toBe(false);
    expect(scopesAllow(['patient/*.read'], 'Observation', 'read')).toBe(true);
    expect(scopesAllow(['patient/*.read', 'patient/Observation.write'], 'Observation', 'write')).toBe(true);
    expect(scopesAllow(['system/*.*'], 'AuditEvent', 'write')).toBe(true);
    expect(scopesAllow([], 'Patient', 'read')).toBe(false);
    expect(scopesAllow(['nonsense', 'patient/Encounter.read'], 'Patient', 'read')).toBe(false);
  });
});
