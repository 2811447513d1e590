// SMART Backend Services (issue 26 item 5, docs/decisions/050-smart-backend-services.md): the SMART configuration at
// the FHIR base and the token endpoint. Both are open to anyone (the token endpoint authenticates the client by its
// signed assertion); the token endpoint takes a form body (RFC 6749) and answers OAuth 2.0 JSON, errors included.
import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { smartConfiguration, TOKEN_PATH } from './smart-configuration';
import { issueSmartToken, OAuthError } from './smart-token.service';

const FORM = 'application/x-www-form-urlencoded';
/** A token request is a few parameters and one JWT: 16 KB is ample. */
const FORM_LIMIT = 16_384;

const tokenForm = z.looseObject({
  grant_type: z.string().optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  client_assertion_type: z.string().optional(),
  client_assertion: z.string().optional(),
});

function oauthErrorOf(error: FastifyError | Error): OAuthError {
  if (error instanceof OAuthError) return error;
  const status = error instanceof AppError ? error.status : ((error as FastifyError).statusCode ?? 500);
  if (status >= 500) return new OAuthError('invalid_request', 'The request could not be handled', status);
  return new OAuthError('invalid_request', error.message || 'Malformed token request', status);
}

/** `fhirBase`: the FHIR API's path (/fhir/R4); the SMART configuration and the token endpoint sit under it. */
export function smartRoutes(deps: AppDeps, fhirBasePath: string) {
  const { config } = deps;
  const fhirBase = (): string => `${config.publicUrl}${fhirBasePath}`;
  return async (app: FastifyInstance): Promise<void> => {
    const tags = ['smart'];
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
      // RFC 6749 §3.2: a parameter MUST NOT be sent twice.
      const form: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(body as string)) {
        if (Object.hasOwn(form, key)) return done(new OAuthError('invalid_request', `${key} was sent more than once`));
        form[key] = value;
      }
      done(null, form);
    });
    // Every refusal of these routes is an OAuth 2.0 error body, never an OperationOutcome.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const refused = oauthErrorOf(error);
      if (refused.status >= 500) request.log.error(error);
      return reply
        .status(refused.status)
        .header('cache-control', 'no-store')
        .send({ error: refused.error, error_description: refused.description });
    });

    app.get(
      `${fhirBasePath}/.well-known/smart-configuration`,
      { schema: { tags, summary: 'SMART configuration (SMART App Launch 2.x): the token endpoint and what it accepts' } },
      async (_request, reply) => reply.header('cache-control', 'no-cache').type('application/json').send(smartConfiguration(fhirBase())),
    );

    app.post(
      `${fhirBasePath}${TOKEN_PATH}`,
      {
        schema: {
          tags,
          summary: 'SMART Backend Services token endpoint: client_credentials with a private_key_jwt client assertion',
          consumes: [FORM],
          body: tokenForm,
        },
      },
      async (request, reply) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== FORM) throw new OAuthError('invalid_request', `The body must be ${FORM}`);
        const body = request.body as Record<string, unknown>;
        const form = new Map<string, string>();
        for (const [key, value] of Object.entries(body)) if (typeof value === 'string') form.set(key, value);
        const answer = await issueSmartToken(deps, form, `${fhirBase()}${TOKEN_PATH}`);
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
      },
    );
  };
}
