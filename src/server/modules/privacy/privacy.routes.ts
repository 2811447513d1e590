// Privacy review API (docs/decisions/018-privacy-review.md): the break-the-glass review queue, one access's detail,
// verdicts (audit.review), the reviewer's counts, and the VIP/restricted marker (patients.restrict).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  breakGlassDetail,
  recordVerdictInput,
  restrictPatientInput,
  restrictPatientResult,
  reviewIdParams,
  reviewQueuePage,
  reviewQueueQuery,
  reviewSummary,
  reviewVerdictRecord,
  volumeAlertPage,
  volumeAlertQuery,
} from '../../../contracts/privacy-review';
import { medicineOverridePage, overrideListQuery } from '../../../contracts/medicine-check-report';
import { recordIdParams } from '../../../contracts/record-api';
import { requireStaff, staffScope } from '../../context/guards';
import { zodRoutes, type AppDeps } from '../../deps';
import { readVolumeAlerts } from './alerts.service';
import { readMedicineOverrides } from './medicine-overrides.service';
import { readReviewDetail, readReviewQueue, readReviewSummary, recordVerdict, setPatientRestricted } from './privacy.service';

export function privacyRoutes({ db, config }: AppDeps) {
  const canReview = requireStaff('audit.review');
  const scope = (request: FastifyRequest) => staffScope(request, db, config.now);
  return async (app: FastifyInstance): Promise<void> => {
    const r = zodRoutes(app);
    const tags = ['privacy review'];

    r.get(
      '/api/privacy-reviews',
      { onRequest: canReview, schema: { tags, querystring: reviewQueueQuery, response: { 200: reviewQueuePage } } },
      async (request) => readReviewQueue(scope(request), config.privacy, request.query),
    );

    r.get('/api/privacy-reviews/summary', { onRequest: canReview, schema: { tags, response: { 200: reviewSummary } } }, async () =>
      readReviewSummary(db),
    );

    r.get(
      '/api/privacy-reviews/alerts',
      { onRequest: canReview, schema: { tags, querystring: volumeAlertQuery, response: { 200: volumeAlertPage } } },
      async (request) => readVolumeAlerts(scope(request), request.query),
    );

    // The medicine-check overrides (decision 045): each warning a clinician went ahead over, with the reason.
    r.get(
      '/api/privacy-reviews/medicine-overrides',
      { onRequest: canReview, schema: { tags, querystring: overrideListQuery, response: { 200: medicineOverridePage } } },
      async (request) => readMedicineOverrides(scope(request), request.query),
    );

    r.get(
      '/api/privacy-reviews/:id',
      { onRequest: canReview, schema: { tags, params: reviewIdParams, response: { 200: breakGlassDetail } } },
      async (request) => readReviewDetail(scope(request), config.privacy, request.params.id),
    );

    r.post(
      '/api/privacy-reviews/:id/verdict',
      { onRequest: canReview, schema: { tags, params: reviewIdParams, body: recordVerdictInput, response: { 201: reviewVerdictRecord } } },
      async (request, reply) => {
        const verdict = await recordVerdict(scope(request), request.params.id, request.body);
        return reply.status(201).send(verdict);
      },
    );

    r.put(
      '/api/patients/:id/restricted',
      {
        onRequest: requireStaff('patients.restrict'),
        schema: { tags, params: recordIdParams, body: restrictPatientInput, response: { 200: restrictPatientResult } },
      },
      async (request) => setPatientRestricted(scope(request), request.params.id, request.body.restricted),
    );
  };
}
