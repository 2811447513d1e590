// One error vocabulary for the API (DESIGN.md §3, STYLE habit 4, decision 021). Every error the server returns
// carries one of these codes; the client turns the code (never the English message) into translated text through
// common.json `errors.<CODE>` in en, af and ng (src/client/lib/error-text.ts).

/** Each code with the HTTP status it is always sent with. */
export const errorStatus = {
  // The request itself
  VALIDATION_FAILED: 400,
  UNSUPPORTED_SEARCH_PARAMETER: 400,
  INVALID_JSON: 400,
  JSON_TOO_DEEP: 400,
  BAD_REQUEST: 400,
  PASSKEY_REGISTRATION_FAILED: 400,
  PASSWORD_TOO_COMMON: 400,
  PASSWORD_PERSONAL: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  INVALID_CURSOR: 400,
  OFFLINE_DEVICE_TIME_INVALID: 400,
  JOIN_SURVIVOR_NOT_IN_PAIR: 400,
  JOIN_KEEP_NOT_IN_PAIR: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  CROSS_ORIGIN: 403,
  // Who is asking
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  PATIENT_LOGIN_FAILED: 401,
  PATIENT_ACTIVATION_FAILED: 401,
  PORTAL_PIN_INCORRECT: 401,
  PORTAL_CURRENT_PIN_REQUIRED: 401,
  SIGN_IN_EXPIRED: 401,
  INVALID_SECOND_FACTOR: 401,
  PASSKEY_FAILED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  LOCKED_OUT: 429,
  NETWORK_THROTTLED: 429,
  RATE_LIMITED: 429,
  TOKEN_THROTTLED: 429,
  BREAK_GLASS_LIMIT: 429,
  PORTAL_SIGN_IN_BUSY: 429,
  // What they may do
  FORBIDDEN: 403,
  PERMISSION_REQUIRED: 403,
  PATIENT_PORTAL_ONLY: 403,
  PORTAL_FROM_STAFF_SESSION: 403,
  ACCESS_GRANT_REQUIRED: 403,
  OWN_PROFILE_ONLY: 403,
  OWN_ACCOUNT_DECISION: 403,
  REVIEW_OWN_ACCESS: 403,
  SETUP_ALREADY_DONE: 403,
  SETUP_REQUIRED: 403,
  REAUTH_REQUIRED: 403,
  USE_SECOND_FACTOR: 403,
  OWN_SECOND_FACTOR_RESET: 403,
  SECOND_FACTOR_REQUIRED_BY_ROLE: 403,
  SCOPE_NOT_GRANTED: 403,
  SCOPE_EXCEEDS_CREATOR: 403,
  REVIEW_OWN_CLIENT_ACCESS: 403,
  PORTAL_RESET_OWN_CODE: 403,
  DEFAULTERS_OTHER_FACILITY: 403,
  APPROVE_OWN_JOIN: 403,
  // Offline clinic mode (decision 061)
  OFFLINE_NEEDS_SECOND_FACTOR: 403,
  DEVICE_REVOKED: 403,
  OFFLINE_NO_GRANT: 403,
  // What they asked about
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  PATIENT_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  ROLE_NOT_FOUND: 404,
  RECORD_ENTRY_NOT_FOUND: 404,
  BREAK_GLASS_ACCESS_NOT_FOUND: 404,
  PASSKEY_NOT_FOUND: 404,
  API_CLIENT_NOT_FOUND: 404,
  NAME_CHANGE_NOT_FOUND: 404,
  DUPLICATE_PAIR_NOT_FOUND: 404,
  PATIENT_JOIN_NOT_FOUND: 404,
  DEVICE_NOT_FOUND: 404,
  OFFLINE_REVIEW_NOT_FOUND: 404,
  CONFLICT: 409,
  DUPLICATE_PATIENT: 409,
  EMAIL_IN_USE: 409,
  USER_NOT_PENDING: 409,
  SECOND_FACTOR_ALREADY_ENROLLED: 409,
  SECOND_FACTOR_NOT_ENROLLED: 409,
  USER_TOTP_NOT_ENROLLED: 409,
  USER_NO_SECOND_FACTOR: 409,
  API_CLIENT_REVOKED: 409,
  PORTAL_RESET_NOT_PENDING: 409,
  CONFIRMATION_REQUIRED: 409,
  VERSION_CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  DUPLICATE_PAIR_DECIDED: 409,
  PATIENT_JOINED: 409,
  PATIENT_ALREADY_JOINED: 409,
  JOIN_PENDING: 409,
  JOIN_NOT_PENDING: 409,
  JOIN_ALREADY_UNDONE: 409,
  JOIN_UNDO_LATER_FIRST: 409,
  OFFLINE_WRITE_SAVED: 409,
  // A FHIR update (PUT) without If-Match, or naming another version than the stored one (FHIR R4 http.html#concurrency).
  PRECONDITION_FAILED: 412,
  VERSION_REQUIRED: 428,
  // FHIR creates (decision 049): an element or value the record cannot hold; an If-None-Exist matching several entries
  FHIR_ELEMENT_NOT_SUPPORTED: 422,
  CONDITIONAL_CREATE_AMBIGUOUS: 412,
  // The server
  DATABASE_BUSY: 503,
  DATABASE_UNAVAILABLE: 503,
  IMMUNIZATION_SCHEDULE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

export interface FieldIssue {
  /** Dotted path of the field, e.g. "email" or "items.0.name". */
  path: string;
  /** An i18n key (namespace:key) or a plain message from the schema library. */
  message: string;
}

export interface ApiErrorBody {
  /** English, for API callers and logs; the client never shows it (it translates `code`). */
  message: string;
  code: ErrorCode;
  issues?: FieldIssue[];
}
