// Duplicate patients API (issue 24, decision 046), all behind patients.merge: the registry-wide run (start or resume,
// progress), the review queue, one pair with both whole records (pair-detail.service), and the decisions: "different",
// "skip", and "same" (the join: modules/patient-joins).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  duplicateDecisionInput,
  duplicateDecisionResult,
  duplicateIdParams,
  duplicatePage,
  duplicateQuery,
  pairDetail,
  scanProgress,
} from '../../../contracts/duplicates';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { auditScanStarted, decideDuplicate, readDuplicates } from './duplicates.service';
import { readPairDetail } from './pair-detail.service';
import { ScanRunner } from './scan-job';
import { decideSame, joinSettingsOf } from '../patient-joins/joins.service';

export function duplicatesRoutes({ db, readDb, config }: AppDeps) {
  const canMerge = requireStaff('patients.merge');
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  return async (app: FastifyInstance): Promise<void> => {
    const runner = new ScanRunner(db, { thresholds: config.match, now: config.now, reads: readDb }, (error) =>
      app.log.error({ err: error }, 'duplicate scan failed'),
    );
    app.addHook('onClose', async () => runner.close());
    const r = zodRoutes(app);
    const tags = ['duplicates'];

    r.get('/api/duplicates/scan', { onRequest: canMerge, schema: { tags, response: { 200: scanProgress } } }, async () =>
      runner.progress(),
    );

    r.post('/api/duplicates/scan', { onRequest: canMerge, schema: { tags, response: { 202: scanProgress } } }, async (request, reply) => {
      const s = scope(request);
      const progress = await runner.start(s.actor.userId);
      await auditScanStarted(s, progress);
      return reply.status(202).send(progress);
    });

    r.get(
      '/api/duplicates',
      { onRequest: canMerge, schema: { tags, querystring: duplicateQuery, response: { 200: duplicatePage } } },
      async (request) => readDuplicates(scope(request), request.query),
    );

    r.get(
      '/api/duplicates/:id',
      { onRequest: canMerge, schema: { tags, params: duplicateIdParams, response: { 200: pairDetail } } },
      async (request) => readPairDetail(scope(request), request.params.id),
    );

    r.post(
      '/api/duplicates/:id/decision',
      {
        onRequest: canMerge,
        schema: {
          tags,
          params: duplicateIdParams,
          body: duplicateDecisionInput,
          response: { 200: duplicateDecisionResult },
        },
      },
      async (request) => {
        const body = request.body;
        if (body.decision === 'same') return decideSame(scope(request), request.params.id, body, joinSettingsOf(config));
        return decideDuplicate(scope(request), request.params.id, body);
      },
    );
  };
}
