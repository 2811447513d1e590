// Builds the Fastify app. Tests use it through `inject`; main.ts only starts it.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import type { AppDeps } from './deps';
import { readDbOf } from './db/read-db';
import { configureAuditPayloads } from './audit/audit-payload';
import { requireStaff } from './context/guards';
import { registerRequestContext } from './context/request-context';
import { registerErrorHandler, registerNotFoundHandler } from './errors/error-handler';
import { registerFhirCors, isCorsUrl } from './http/cors';
import { registerCsrfGuard } from './http/csrf';
import { registerInputGuard } from './http/input-guard';
import { registerJsonParser } from './http/json-depth';
import { registerRateLimits } from './http/rate-limit';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStaticClient } from './http/static-client';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { mfaRoutes } from './modules/auth/mfa.routes';
import { FHIR_BASE_PATH, fhirRoutes } from './modules/fhir/fhir.routes';
import { cdsHooksRoutes } from './modules/cds-hooks/cds-hooks.routes';
import { passkeyRoutes } from './modules/auth/passkeys.routes';
import { healthRoutes } from './modules/health/health.routes';
import { patientsRoutes } from './modules/patients/patients.routes';
import { portalRoutes } from './modules/portal/portal.routes';
import { privacyRoutes } from './modules/privacy/privacy.routes';
import { duplicatesRoutes } from './modules/duplicates/duplicates.routes';
import { patientJoinsRoutes } from './modules/patient-joins/joins.routes';
import { registerAccessRefusalEvents } from './modules/access/access-refusals';
import { accessRoutes } from './modules/access/access.routes';
import { apiClientsRoutes } from './modules/api-clients/api-clients.routes';
import { codesRoutes } from './modules/codes/codes.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { loadMedicineKnowledge } from './modules/medicine-checks/medicine-knowledge';
import { immunizationRoutes } from './modules/immunization/immunization.routes';
import { medicineChecksRoutes } from './modules/medicine-checks/medicine-checks.routes';
import { recordsRoutes } from './modules/records/records.routes';
import { setupRoutes } from './modules/setup/setup.routes';
import { TOKEN_PATH } from './modules/smart/smart-configuration';
import { smartRoutes } from './modules/smart/smart.routes';
import { usersRoutes } from './modules/users/users.routes';

export const BODY_LIMIT = 100 * 1024;

export interface BuildAppOptions {
  db: Db;
  /** The read pool of DATABASE_READ_URL (decision 058); absent: those reads are on `db` too. */
  readDb?: Db | undefined;
  config: Config;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ db, readDb, config, logger = false }: BuildAppOptions): Promise<FastifyInstance> {
  // The key of the audit payloads this process writes and reads (decision 042): writeAudit has only a transaction.
  configureAuditPayloads(config.auditPayloadKey);
  // The medicine-check knowledge, read and checked once (decision 043): a broken file makes the checks unavailable,
  // reported by GET /api/health and by every check, never a silent pass.
  loadMedicineKnowledge(config.medicineKnowledgeDir);
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // First of the hooks, so that an answer refused by any later one carries the headers too.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix primitives inject small <style> elements (scroll lock); scripts stay 'self' only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: config.production,
  });
  // CORS for the FHIR API and the SMART token endpoint only (decision 050), before anything that may refuse.
  registerFhirCors(app, FHIR_BASE_PATH, config.fhirCorsOrigins);
  registerCsrfGuard(app, config.trustedOrigins, {
    origins: config.fhirCorsOrigins,
    isCorsUrl: (url) => isCorsUrl(url, FHIR_BASE_PATH),
    isTokenUrl: (url) => url.split('?')[0] === `${FHIR_BASE_PATH}${TOKEN_PATH}`,
  });
  registerJsonParser(app);
  registerInputGuard(app);
  registerAccessRefusalEvents(app, db, config.now);

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'National Health Records API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
  });

  await registerRateLimits(app, db, config);
  const deps: AppDeps = { db, readDb: readDbOf(db, readDb, (message) => app.log.warn(message)), config };
  // Every request gets request.meta and request.actor (session + permissions from the database) before any route.
  registerRequestContext(app, deps);
  // The API document names every route and field: staff only (issue 10 item 10); a patient or anonymous caller gets 401.
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiHooks: { onRequest: requireStaff() } });
  await app.register(healthRoutes(deps));
  await app.register(setupRoutes(deps));
  await app.register(authRoutes(deps));
  await app.register(mfaRoutes(deps));
  await app.register(passkeyRoutes(deps));
  await app.register(usersRoutes(deps));
  await app.register(auditRoutes(deps));
  await app.register(portalRoutes(deps));
  await app.register(patientsRoutes(deps));
  await app.register(accessRoutes(deps));
  await app.register(recordsRoutes(deps));
  await app.register(codesRoutes(deps));
  await app.register(medicineChecksRoutes(deps));
  await app.register(immunizationRoutes(deps));
  await app.register(privacyRoutes(deps));
  await app.register(duplicatesRoutes(deps));
  await app.register(patientJoinsRoutes(deps));
  await app.register(fhirRoutes(deps));
  await app.register(smartRoutes(deps, FHIR_BASE_PATH));
  await app.register(cdsHooksRoutes(deps));
  await app.register(apiClientsRoutes(deps));
  await app.register(devicesRoutes(deps));

  registerNotFoundHandler(app, await registerStaticClient(app, config.clientDir));
  return app;
}
