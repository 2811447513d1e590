// Reading a resource a FHIR client sends (POST <type>): small accessors, so a kind's mapping reads as the fields it
// takes. What the record cannot hold is refused by the helpers of faithful.ts (decision 049); the kind's schema then
// judges the result exactly as it judges the staff screens' input.
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const first = (v: unknown): Json => obj(Array.isArray(v) ? v[0] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A CodeableConcept's first code. */
export const firstCode = (v: unknown): string | undefined => str(first(obj(v).coding).code);
