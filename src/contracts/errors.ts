// One error vocabulary for the API (DESIGN.md §3, STYLE habit 4). The client maps codes to translated text.
export const errorCodes = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CROSS_ORIGIN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'SETUP_ALREADY_DONE',
  'REVIEW_OWN_ACCESS',
  'SETUP_REQUIRED',
  'DATABASE_BUSY',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  /** Dotted path of the field, e.g. "email" or "items.0.name". */
  path: string;
  /** An i18n key (namespace:key) or a plain message from the schema library. */
  message: string;
}

export interface ApiErrorBody {
  message: string;
  code: ErrorCode;
  issues?: FieldIssue[];
}
