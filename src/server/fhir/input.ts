// Reading a resource a FHIR client sends (POST <type>): small, forgiving accessors, so a kind's mapping reads as the
// fields it takes. The kind's schema then judges the result exactly as it judges the staff screens' input.
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const first = (v: unknown): Json => obj(Array.isArray(v) ? v[0] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A CodeableConcept's words: its text, else its first coding's display. */
export const words = (v: unknown): string | undefined => str(obj(v).text) ?? str(first(obj(v).coding).display);
/** A CodeableConcept's first code. */
export const firstCode = (v: unknown): string | undefined => str(first(obj(v).coding).code);
/** The date part of a FHIR date or dateTime. */
export const day = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, 10) : undefined);

/**
 * The code of a CodeableConcept in one of `systems` (the kind's catalogue), as the record input's `code` and
 * `codeSystem`; none when it has no coding in those systems (the text is then stored uncoded).
 */
export function codedFrom(v: unknown, systems: readonly string[]): { code: string | null; codeSystem: string | null } {
  const codings = (Array.isArray(obj(v).coding) ? (obj(v).coding as unknown[]) : []).map(obj);
  const found = codings.find((c) => typeof c.system === 'string' && systems.includes(c.system) && typeof c.code === 'string');
  return found ? { code: found.code as string, codeSystem: found.system as string } : { code: null, codeSystem: null };
}
