// For the engine's Node tests (issue 27): the device routes of src/contracts/offline.ts answered as the contract
// says, each request checked with the contract's own schemas, while the server's routes are built beside this engine
// (the record's own routes, the delta read included, are the real app's). Not imported by the app.
import type { z } from 'zod';
import {
  discardInput,
  enableDeviceInput,
  syncInput,
  type DeviceContact,
  type EnabledDevice,
  type OfflineSet,
  type syncResponse,
  type SyncResult,
  type SyncOutcome,
} from '../../../../contracts/offline';

export interface ContractDeviceRoutes {
  fetch: typeof fetch;
  /** The bodies of every sync request, as parsed by the contract. */
  syncs: ReturnType<typeof syncInput.parse>[];
  discards: ReturnType<typeof discardInput.parse>[];
  offlineSet: OfflineSet;
  status: DeviceContact['status'];
  /** What each write is answered (by clientId; `saved` when not named). */
  outcomes: Map<string, { outcome: SyncOutcome; code?: string }>;
  /** Answers the next sync requests with this status (a 503, a 403 DEVICE_REVOKED), or cut the link (`network`). */
  failNext: { status: number | 'network'; code?: string; times: number } | null;
  /** How many writes each clientId was stored as (0, 1: never 2). */
  stored: Map<string, number>;
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function contractDeviceRoutes(userId: string, offlineSet: OfflineSet, deviceId = crypto.randomUUID()): ContractDeviceRoutes {
  const routes: ContractDeviceRoutes = {
    syncs: [],
    discards: [],
    offlineSet,
    status: 'active',
    outcomes: new Map(),
    failNext: null,
    stored: new Map(),
    fetch: async (input, init) => {
      const url = String(input);
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const now = new Date().toISOString();
      if (url === '/api/devices' && init?.method === 'POST') {
        const { label } = enableDeviceInput.parse(body);
        const device = {
          id: deviceId,
          userId,
          userName: 'Test',
          facility: null,
          label,
          status: 'active' as const,
          createdAt: now,
          lastContactAt: now,
          revokedAt: null,
        };
        return json(201, { device, expiryHours: 72, recordHours: 8, appointmentDays: 3 } satisfies EnabledDevice);
      }
      const m = /^\/api\/devices\/([0-9a-f-]+)\/([a-z-]+)$/.exec(url);
      if (!m || m[1] !== deviceId) return json(404, { code: 'NOT_FOUND', message: 'Not found' });
      if (routes.status === 'revoked' && m[2] !== 'contact') return json(403, { code: 'DEVICE_REVOKED', message: 'Revoked' });
      switch (m[2]) {
        case 'contact':
          return json(200, { status: routes.status, serverTime: now } satisfies DeviceContact);
        case 'offline-set':
          return json(200, { ...routes.offlineSet, serverTime: now });
        case 'discard':
          routes.discards.push(discardInput.parse(body));
          return new Response(null, { status: 204 });
        case 'sync': {
          if (routes.failNext && routes.failNext.times > 0) {
            routes.failNext.times--;
            const { status, code } = routes.failNext;
            if (status === 'network') throw new TypeError('Failed to fetch');
            return json(status, { code: code ?? 'INTERNAL_ERROR', message: 'Failed' });
          }
          const input = syncInput.parse(body);
          routes.syncs.push(input);
          const results: SyncResult[] = input.writes.map((w) => {
            const o = routes.outcomes.get(w.clientId) ?? { outcome: 'saved' as const };
            if (o.outcome === 'saved' || o.outcome === 'saved_for_review') routes.stored.set(w.clientId, 1); // idempotent by clientId
            const patientId = w.type === 'entry' && 'id' in w.patient ? w.patient.id : null;
            return { clientId: w.clientId, outcome: o.outcome, patientId, id: null, reviewId: null, code: o.code ?? null };
          });
          return json(200, { serverTime: now, results, accessLogSaved: input.accessLog.map((o) => o.clientId) } satisfies z.input<
            typeof syncResponse
          >);
        }
        default:
          return json(404, { code: 'NOT_FOUND', message: 'Not found' });
      }
    },
  };
  return routes;
}
