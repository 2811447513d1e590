// The client's record kinds (issue 22 item 1): each kind once, in the contracts' order; the add forms' defaults
// (SPEC §4); the status colours (SPEC §4, §2); what an add sends (numbers, codes, a lab value as a number or text);
// the lab results' flags and the dashboard's critical results.
import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../../lib/translator';
import { KIND_CONTRACTS, RECORD_KINDS, type LabResultRow } from '../../../../contracts/kinds';
import { statusTone } from '../../../components/ui/status-tone';
import { KIND_VIEWS, formDefaults, formPayload, kindView } from '.';
import { criticalResultAlerts } from '../../../../contracts/kinds/lab-results';
import { flagBadge, labValue, rangeText } from './lab-results';
import { v1 } from '../../../../contracts/kinds/versioned.fixture';

const t = ((key: string) => key) as unknown as TFunction;

describe('the registry', () => {
  it('lists every kind of the contracts once, in their order, each under its own name', () => {
    expect(Object.keys(KIND_VIEWS)).toEqual(RECORD_KINDS);
    for (const kind of RECORD_KINDS) expect(KIND_VIEWS[kind].kind).toBe(kind);
  });

  it('gives a coded kind a type-ahead for the field its contract codes, and no other kind one', () => {
    for (const kind of RECORD_KINDS) {
      const coded = kindView(kind)
        .fields.filter((f) => f.control === 'coded')
        .map((f) => f.name);
      expect(coded, kind).toEqual(KIND_CONTRACTS[kind].coded ? [KIND_CONTRACTS[kind].coded!.field] : []);
    }
  });

  it('shows in the portal exactly the kinds the contracts give a portal view', () => {
    for (const kind of RECORD_KINDS) expect(kindView(kind).portal === null, kind).toBe(KIND_CONTRACTS[kind].portal === null);
  });
});

describe('add dialog defaults (SPEC §4)', () => {
  it('starts on Active, Scheduled, Mild, Active and final; everything else blank', () => {
    expect(formDefaults('diagnoses').status).toBe('Active');
    expect(formDefaults('appointments').status).toBe('Scheduled');
    expect(formDefaults('allergies').severity).toBe('Mild');
    expect(formDefaults('medications').status).toBe('Active');
    expect(formDefaults('lab-results').status).toBe('final');
    expect(formDefaults('vaccines')).toEqual({
      ...Object.fromEntries(KIND_VIEWS.vaccines.fields.map((f) => [f.name, ''])),
      code: '',
      codeSystem: '',
    });
    expect(formDefaults('vitals')).toEqual({ systolic: '', diastolic: '', temperature: '', weight: '' });
  });
});

describe('what an add sends', () => {
  it('sends number fields as numbers, blank ones as null', () => {
    expect(formPayload('vitals', { systolic: '128', diastolic: '84', temperature: '', weight: '72.5' })).toEqual({
      systolic: 128,
      diastolic: 84,
      temperature: null,
      weight: 72.5,
    });
  });

  it('sends no code for free text, and the picked code with its system', () => {
    const free = formPayload('medications', { ...formDefaults('medications'), name: 'Amoxil syrup' });
    expect(free).toMatchObject({ name: 'Amoxil syrup', code: null, codeSystem: null });
    const picked = formPayload('medications', {
      ...formDefaults('medications'),
      name: 'amoxicillin',
      code: 'J01CA04',
      codeSystem: 'http://www.whocc.no/atc',
    });
    expect(picked).toMatchObject({ code: 'J01CA04', codeSystem: 'http://www.whocc.no/atc' });
  });

  it('sends a lab value as a number when it reads as one, otherwise as the text', () => {
    const payload = (value: string) => formPayload('lab-results', { ...formDefaults('lab-results'), value }).value;
    expect(payload('6.9')).toBe(6.9);
    expect(payload(' 5,4 ')).toBe(5.4);
    expect(payload('-2')).toBe(-2);
    expect(payload('Positive')).toBe('Positive');
    expect(payload('>100')).toBe('>100');
    expect(payload('')).toBe('');
    expect(labValue('12')).toBe(12);
    expect(formPayload('lab-results', { ...formDefaults('lab-results'), referenceLow: '3.5', referenceHigh: '' })).toMatchObject({
      referenceLow: 3.5,
      referenceHigh: null,
    });
  });

  it("fills in a picked test's short name, unit and range, and nothing the entry does not carry", () => {
    const pick = KIND_VIEWS['lab-results'].onPick!;
    expect(
      pick({
        code: '2823-3',
        codeSystem: 'http://loinc.org',
        display: 'Potassium [Moles/volume] in Serum or Plasma',
        shortName: 'Potassium',
        unit: 'mmol/L',
        referenceLow: 3.5,
        referenceHigh: 5.1,
      }),
    ).toEqual({
      name: 'Potassium',
      unit: 'mmol/L',
      referenceLow: '3.5',
      referenceHigh: '5.1',
    });
    expect(pick({ code: '58410-2', codeSystem: 'http://loinc.org', display: 'CBC panel', referenceLow: null })).toEqual({});
  });
});

describe('status colours (SPEC §4)', () => {
  const tone = (kind: 'diagnoses' | 'medications' | 'allergies' | 'appointments', value: string) => {
    const view = KIND_VIEWS[kind].item as (row: never, tt: TFunction) => { badge?: { tone: string } };
    const field = kind === 'allergies' ? 'severity' : 'status';
    return view(
      {
        [field]: value,
        diagnosedDate: '2024-01-01',
        reportedDate: '2024-01-01',
        prescribedDate: '2024-01-01',
        date: '2024-01-01',
      } as never,
      t,
    ).badge?.tone;
  };

  it('marks an active diagnosis destructive, and an active medication differently', () => {
    expect(tone('diagnoses', 'Active')).toBe('destructive');
    expect(tone('medications', 'Active')).not.toBe(tone('diagnoses', 'Active'));
    expect(tone('medications', 'Active')).not.toBe(tone('medications', 'Completed'));
  });

  it('matches values without case, and colours the older severities like the new ones', () => {
    expect(tone('diagnoses', 'Resolved')).toBe(tone('diagnoses', 'resolved'));
    expect(tone('allergies', 'Severe')).toBe(tone('allergies', 'high'));
    expect(tone('allergies', 'Moderate')).toBe(tone('allergies', 'medium'));
    expect(tone('allergies', 'Mild')).toBe(tone('allergies', 'anything else'));
    expect(statusTone({ a: 'green' }, ' A ')).toBe('green');
  });
});

describe('lab results', () => {
  const row = (over: Partial<LabResultRow>): LabResultRow => ({
    id: 1,
    patientId: 1,
    ...v1,
    name: 'Potassium',
    code: '2823-3',
    codeSystem: 'http://loinc.org',
    codeDisplay: 'Potassium',
    value: 4.2,
    unit: 'mmol/L',
    referenceLow: 3.5,
    referenceHigh: 5.1,
    collectedDate: '2024-03-01',
    status: 'final',
    facility: 'Katutura State Hospital',
    abnormalFlag: null,
    enteredBy: 'Dr. Amutenya',
    enteredAt: '2024-03-01T10:00:00Z',
    ...over,
  });

  it('shows H and L amber, HH and LL destructive, each read out as a word', () => {
    expect(flagBadge('H', t)).toEqual({ text: 'H', label: 'record:flags.H', tone: 'yellow' });
    expect(flagBadge('L', t).tone).toBe('yellow');
    expect(flagBadge('HH', t)).toEqual({ text: 'HH', label: 'record:flags.HH', tone: 'destructive' });
    expect(flagBadge('LL', t).tone).toBe('destructive');
    expect(KIND_VIEWS['lab-results'].item(row({ abnormalFlag: 'HH', value: 7.9 }), t).badge?.tone).toBe('destructive');
    expect(KIND_VIEWS['lab-results'].item(row({}), t).badge).toBeUndefined();
  });

  it('writes the range with what is known of it', () => {
    expect(rangeText(3.5, 5.1)).toBe('3.5–5.1');
    expect(rangeText(3.5, null)).toBe('≥ 3.5');
    expect(rangeText(null, 5.1)).toBe('≤ 5.1');
    expect(rangeText(null, null)).toBeNull();
  });

  it('alerts on a critical flag only in the latest result of each test', () => {
    const rows = [
      row({ id: 4, abnormalFlag: null, collectedDate: '2024-03-04' }), // potassium again, now normal
      row({ id: 3, name: 'Glucose', code: '14749-6', abnormalFlag: 'LL', value: 1.2 }),
      row({ id: 2, abnormalFlag: 'HH', value: 7.9, collectedDate: '2024-03-02' }),
      row({ id: 1, name: 'HIV rapid test', code: null, codeSystem: null, value: 'Positive', abnormalFlag: null }),
    ];
    expect(criticalResultAlerts(rows)).toEqual([
      { key: 'criticalResult', params: { name: 'Glucose', value: expect.any(String), flag: 'LL' } },
    ]);
    const alert = criticalResultAlerts(rows)[0]!;
    expect(KIND_VIEWS['lab-results'].dashboard!.alert!(alert, t)).toBe('record:alerts.criticalResult');
  });
});
