// Every route of the app's OpenAPI document, as every role (signed out, patient, each staff role), with generated
// hostile values in each path parameter, query parameter and body field (issue 10 item 7): never a 5xx; NUL, lone
// surrogates, dates outside the real range and wrong types are refused with a 4xx and leave the database as it was.
// New routes fall under this test by being in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { ALL_ROLE_IDS } from '../test/permission-matrix';
import { createTestApp, type TestApp } from '../test/test-app';
import { createPatient } from '../test/patient-fixtures';
import { signInPatient } from '../test/portal-fixtures';
import { createStaffUser, signInAs } from '../test/staff';
import { databaseFingerprint } from '../test/db-fingerprint';
import { encodeQueryValue, hostilePathSegments, hostileText, hostileTypes, type HostileValue } from '../test/hostile-values';

/** The parts of an OpenAPI 3 document this test reads. */
interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  default?: unknown;
  /** OpenAPI 3.0's way of saying null is allowed. */
  nullable?: boolean;
}
interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Case {
  route: string;
  where: string;
  hostile: HostileValue;
  request: InjectOptions;
}

const PATIENT_IP = '10.77.0.9'; // the portal sign-in comes from another machine than the staff sign-ins
let t: TestApp;
let patientId: number;
let pendingUserId: string;
const sessions: { role: string; cookie?: string; remoteAddress?: string }[] = [{ role: 'signed out' }];

beforeAll(async () => {
  t = await createTestApp();
  const patient = await createPatient(t.db);
  patientId = patient.id;
  // The portal sign-in through the real activation (decision 016).
  const portal = await signInPatient(t, { id: patient.id, ncNumber: patient.idNumber, dateOfBirth: patient.dateOfBirth }, PATIENT_IP);
  sessions.push({ role: 'patient', cookie: portal, remoteAddress: PATIENT_IP });
  for (const roleId of ALL_ROLE_IDS) sessions.push({ role: `staff role ${roleId}`, cookie: (await signInAs(t, roleId)).cookie });
  pendingUserId = (await createStaffUser(t.db, { roleId: 3, active: false })).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const isDateField = (name: string, schema: JsonSchema): boolean =>
  schema.format === 'date' || /date$|^date|nextDue|nextReview|recordedAt/i.test(name);

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

const allowsNull = (s: JsonSchema): boolean =>
  s.nullable === true || types(s).includes('null') || [...(s.oneOf ?? []), ...(s.anyOf ?? [])].some(allowsNull);

/** A plausible valid value for a schema, so that the hostile field is what a refusal is about. */
function validValue(name: string, s: JsonSchema): unknown {
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alt = s.oneOf ?? s.anyOf;
  if (alt?.length) return validValue(name, alt.find((a) => !types(a).includes('null')) ?? alt[0]!);
  const type = types(s).find((x) => x !== 'null');
  if (type === 'object') return validObject(s);
  if (type === 'array') return [];
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return Math.max(s.minimum ?? 1, 1);
  if (isDateField(name, s)) return '2020-01-15';
  if (/email/i.test(name)) return 'someone@health.test.na';
  if (/ncNumber|idNumber/.test(name)) return '12345678903';
  if (/time/i.test(name)) return '09:30';
  if (/password/i.test(name)) return 'correct horse battery staple';
  if (name === 'pin') return '482917';
  if (name === 'activationCode') return 'ABCD-EFGH';
  return 'Valid text'.padEnd(Math.max(s.minLength ?? 0, 10), 'x');
}

function validObject(s: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, validValue(k, v)]));
}

/** Every hostile request for one operation: one field at a time, the rest valid. */
function casesFor(path: string, method: Method, op: Operation, seed: number): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const bodies = bodySchema?.oneOf ?? bodySchema?.anyOf ?? (bodySchema ? [bodySchema] : []);
  const idFor = (): string => (path.includes('/users/') ? pendingUserId : String(patientId));
  const url = (pathOverride?: [string, string], query?: [string, string]): string => {
    let u = path;
    for (const p of pathParams) u = u.replace(`{${p.name}}`, pathOverride?.[0] === p.name ? pathOverride[1] : idFor());
    return query ? `${u}?${query[0]}=${encodeQueryValue(query[1])}` : u;
  };
  const route = `${method} ${path}`;
  const out: Case[] = [];
  let n = seed;
  const baseBody = bodies[0] ? validObject(bodies[0]) : undefined;
  for (const p of pathParams) {
    for (const hostile of hostilePathSegments(n++ * 10)) {
      out.push({
        route,
        where: `path ${p.name}`,
        hostile,
        request: { method, url: url([p.name, String(hostile.value)]), ...(baseBody ? { payload: baseBody } : {}) },
      });
    }
  }
  for (const q of queryParams) {
    for (const hostile of hostileText(n++ * 10, isDateField(q.name, q.schema ?? {}), true)) {
      out.push({ route, where: `query ${q.name}`, hostile, request: { method, url: url(undefined, [q.name, String(hostile.value)]) } });
    }
  }
  for (const body of bodies) {
    const base = validObject(body);
    for (const [field, schema] of Object.entries(body.properties ?? {})) {
      if (schema.const !== undefined || (schema.enum?.length === 1 && field === 'method')) continue; // the union's tag
      // null (or an infinity, which JSON sends as null) is no wrong type for a field the schema declares nullable.
      const values = [
        ...hostileText(n * 10, isDateField(field, schema)),
        ...hostileTypes(n * 10).filter((h) => !(JSON.stringify(h.value) === 'null' && allowsNull(schema))),
      ];
      n++;
      for (const hostile of values) {
        out.push({ route, where: `body ${field}`, hostile, request: { method, url: url(), payload: { ...base, [field]: hostile.value } } });
      }
    }
  }
  return out;
}

function operations(): { path: string; method: Method; op: Operation }[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({ path, method: m.toUpperCase() as Method, op })),
  );
}

describe('hostile input on every route of the OpenAPI document, as every role', () => {
  it('never answers 5xx; refuses forbidden text, far dates and wrong types with a 4xx and changes nothing', async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(30);
    // The portal activation routes (decision 016) are in the document, so they get the same treatment.
    const named = ops.map((o) => `${o.method} ${o.path}`);
    // So are the FHIR API's searches and creates (issue 14), the passkey routes (decision 026) and the system clients'
    // administrator routes (decision 020).
    for (const route of [
      'POST /api/auth/patient-activate',
      'POST /api/auth/patient-login',
      'POST /api/patients/{id}/portal-activation',
      'GET /fhir/R4/Patient',
      'GET /fhir/R4/Condition',
      'POST /fhir/R4/Condition',
      'POST /fhir/R4/Patient/$match',
      'GET /api/auth/passkeys',
      'POST /api/auth/passkeys/registration-options',
      'POST /api/auth/passkeys',
      'DELETE /api/auth/passkeys/{id}',
      'POST /api/auth/passkey/options',
      'POST /api/auth/passkey-login',
      'POST /api/auth/login/second-factor/passkey',
      'POST /api/auth/reauth/passkey',
      'POST /api/auth/reauth/password',
      // Issue 27 (decision 061): offline clinic mode's devices and review tasks.
      'POST /api/devices',
      'GET /api/devices',
      'POST /api/devices/{id}/revoke',
      'POST /api/devices/{id}/contact',
      'GET /api/devices/{id}/offline-set',
      'POST /api/devices/{id}/sync',
      'POST /api/devices/{id}/discard',
      'GET /api/offline-reviews',
      'POST /api/offline-reviews/{id}/close',
      'POST /api/auth/patient-passkey-login',
      'GET /api/admin/second-factors',
      'DELETE /api/admin/users/{id}/totp',
      'DELETE /api/admin/users/{id}/second-factors',
      'GET /api/admin/name-changes',
      'POST /api/admin/name-changes/{id}/approve',
      'POST /api/admin/name-changes/{id}/reject',
      'GET /api/admin/api-clients',
      'POST /api/admin/api-clients',
      'POST /api/admin/api-clients/{id}/revoke',
      'POST /api/admin/api-clients/{id}/token',
      // Issue 26 item 5 (decision 050): SMART Backend Services.
      'PUT /api/admin/api-clients/{id}/smart',
      'GET /fhir/R4/.well-known/smart-configuration',
      'POST /fhir/R4/auth/token',
      // Issue 21 item 2: the patient's PIN again before adding a passkey.
      'POST /api/patient-portal/reauth',
      // Issue 21 item 1: the desk's portal view, the two-person reset and the patient's notice.
      'GET /api/patients/{id}/portal-status',
      'POST /api/patients/{id}/portal-reset/confirm',
      'GET /api/patient-portal/notices',
      'POST /api/patient-portal/notices/dismiss',
      // Issue 24 items 3-5 (decisions 046, 048): one pair with both records, joins, their approval and undo.
      'GET /api/duplicates/{id}',
      'POST /api/duplicates/{id}/decision',
      'GET /api/patient-joins',
      'GET /api/patient-joins/{id}',
      'POST /api/patient-joins/{id}/approve',
      'POST /api/patient-joins/{id}/undo',
      // Issue 26 items 3 and 7 (decision 053): vread, history, update, and the IPS by identifier and by POST.
      'GET /fhir/R4/Condition/{id}/_history',
      'GET /fhir/R4/Condition/{id}/_history/{vid}',
      'PUT /fhir/R4/Condition/{id}',
      'PUT /fhir/R4/Observation/{id}',
      'GET /fhir/R4/Patient/$summary',
      'POST /fhir/R4/Patient/$summary',
      'POST /fhir/R4/Patient/{id}/$summary',
    ]) {
      expect(named).toContain(route);
    }
    const failures: string[] = [];
    let sent = 0;
    for (const [i, { path, method, op }] of ops.entries()) {
      const cases = casesFor(path, method, op, i * 100);
      // Refused cases first, between two fingerprints: nothing may change. Then the allowed-but-odd ones.
      for (const mustRefuse of [true, false]) {
        const batch = cases.filter((c) => c.hostile.mustRefuse === mustRefuse);
        if (batch.length === 0) continue;
        const before = mustRefuse ? await databaseFingerprint(t.db) : undefined;
        for (const session of sessions) {
          // A role the route's guard turns away (401/403 on the first case) gets one value per field, not all.
          let guarded: boolean | undefined;
          const fieldsSent = new Set<string>();
          for (const c of batch) {
            if (guarded && fieldsSent.has(c.where)) continue;
            fieldsSent.add(c.where);
            const res = await t.app.inject({
              ...c.request,
              ...(session.remoteAddress ? { remoteAddress: session.remoteAddress } : {}),
              headers: { ...(session.cookie ? { cookie: session.cookie } : {}) },
            });
            sent++;
            guarded ??= res.statusCode === 401 || res.statusCode === 403;
            const what = `${c.route} [${session.role}] ${c.where} = ${JSON.stringify(c.hostile.value)} (${c.hostile.label})`;
            if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
            else if (mustRefuse && (res.statusCode < 400 || res.statusCode >= 500))
              failures.push(`${what}: accepted with ${res.statusCode}`);
          }
        }
        if (before) {
          const after = await databaseFingerprint(t.db);
          const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
          if (changed.length) failures.push(`${method} ${path}: refused requests changed ${changed.join(', ')}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures.slice(0, 40)).toEqual([]);
  }, 600_000);
});

/** A JSON body nested `levels` deep, arrays and objects by turns: about 16 KB for 4,000 levels. */
function deeplyNested(levels: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    open += i % 2 ? '[' : '{"a":';
    close = (i % 2 ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

describe('deeply nested JSON on every route of the OpenAPI document, as every role (issue 21 item 6)', () => {
  it('is refused before parsing: a 4xx (400 JSON_TOO_DEEP once past the guard), never a 5xx, and changes nothing', async () => {
    const body = deeplyNested(4000);
    expect(body.length).toBeLessThan(20_000);
    const failures: string[] = [];
    let refusedForDepth = 0;
    // The reads first (their bodies are not read, and a read may be audited), then every request that has a body,
    // between two fingerprints: nothing may change.
    const ops = operations().sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    let before: Record<string, string> | undefined;
    for (const { path, method } of ops) {
      if (method !== 'GET') before ??= await databaseFingerprint(t.db);
      const url = path.replace(/\{[^}]+\}/g, (m) => (m === '{id}' && path.includes('/users/') ? pendingUserId : String(patientId)));
      const contentType = path.startsWith('/fhir/') ? 'application/fhir+json' : 'application/json';
      for (const session of sessions) {
        const res = await t.app.inject({
          method,
          url,
          payload: body,
          ...(session.remoteAddress ? { remoteAddress: session.remoteAddress } : {}),
          headers: { 'content-type': contentType, ...(session.cookie ? { cookie: session.cookie } : {}) },
        });
        const what = `${method} ${path} [${session.role}]`;
        if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (method !== 'GET' && (res.statusCode < 400 || res.statusCode >= 500))
          failures.push(`${what}: accepted with ${res.statusCode}`);
        else if (method !== 'GET' && res.statusCode === 400) {
          const text = res.body;
          if (!text.includes('JSON_TOO_DEEP')) failures.push(`${what}: 400 without JSON_TOO_DEEP: ${text.slice(0, 200)}`);
          else refusedForDepth++;
        }
      }
    }
    // Signed out, the sign-in and registration routes read the body: the depth refusal is what they answer.
    expect(refusedForDepth).toBeGreaterThan(20);
    expect(failures.slice(0, 40)).toEqual([]);
    expect(before).toBeDefined();
    const after = await databaseFingerprint(t.db);
    expect(Object.keys(after).filter((k) => after[k] !== before?.[k])).toEqual([]);
  }, 300_000);
});
