// GET /fhir/R4/.well-known/smart-configuration (SMART App Launch 2.x, decision 050): what a SMART Backend Services
// client needs to find the token endpoint and how to authenticate there. This server offers the client-credentials
// grant only (no user-facing launch, so no authorization endpoint and no PKCE methods are announced).
import { ASSERTION_ALGS } from './client-assertion';
import { SMART_SCOPES_SUPPORTED } from './smart-scopes';

/** The token endpoint, relative to the FHIR base. */
export const TOKEN_PATH = '/auth/token';

export function smartConfiguration(fhirBase: string): Record<string, unknown> {
  return {
    token_endpoint: `${fhirBase}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGS],
    scopes_supported: [...SMART_SCOPES_SUPPORTED],
    capabilities: ['client-confidential-asymmetric', 'permission-v1', 'permission-v2'],
  };
}
