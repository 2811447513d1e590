// The translation namespaces and how they travel (issue 21 item 18): a language's namespaces that the same screens
// want together come in one file, one request on a slow link instead of one per namespace (<lang>/core.ts and
// <lang>/staff.ts, which import that language's JSON files). Loading any namespace of a bundle brings the whole
// bundle; the translator still gets only the namespaces asked for (lib/i18n.ts).

/** The namespaces every page needs (sign-in, setup, shared words and validation messages). */
export const CORE_NAMESPACES = ['common', 'validation', 'auth', 'setup'] as const;
/** The namespaces that come with their screen. */
export const LAZY_NAMESPACES = [
  'record',
  'dashboard',
  'profile',
  'users',
  'audit',
  'search',
  'patients',
  'portal',
  'privacy',
  'security',
  'offline',
] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];
export type NamespaceName = (typeof CORE_NAMESPACES)[number] | LazyNamespace;

/** The namespaces the signed-in staff dashboard loads with its code (app/router.tsx). */
export const STAFF_NAMESPACES = [
  'dashboard',
  'profile',
  'users',
  'audit',
  'search',
  'patients',
  'security',
] as const satisfies readonly LazyNamespace[];

/**
 * The file each namespace travels in: core (<lang>/core.ts) with the first page, staff (<lang>/staff.ts) with the
 * dashboard; record, portal and privacy (wanted by both the dashboard and the portal) each in its own JSON file.
 */
export const LOCALE_BUNDLES: Record<NamespaceName, 'core' | 'staff' | null> = {
  common: 'core',
  validation: 'core',
  auth: 'core',
  setup: 'core',
  dashboard: 'staff',
  profile: 'staff',
  users: 'staff',
  audit: 'staff',
  search: 'staff',
  patients: 'staff',
  security: 'staff',
  record: null,
  portal: null,
  privacy: null,
  offline: null,
};
