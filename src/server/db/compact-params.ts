// A hot statement's parameters, fewer (issue 29 item 3): drizzle renders each use of a value as a parameter of its
// own, so the search's statement bound 55 parameters (1.6 KB) on every request, a third of them constant text (the
// audit row's JSON keys, the alert messages) and a dozen the same slot again (the clock, the user, the session).
// Each parameter is serialized by node-postgres and parsed by PostgreSQL on every execution. Compacted once, when
// the statement is rendered: every use of a slot shares one parameter, and constant text becomes a literal of the
// statement's text. The statement means the same: an untyped literal takes its type from where it stands, as an
// untyped parameter does.
import { Param, Placeholder } from 'drizzle-orm';

/** A statement as drizzle renders it: $1, $2... in order, one per entry of `params`. */
export interface RenderedStatement {
  sql: string;
  params: unknown[];
}

const PARAMETER = /\$(\d+)/g;

/** The slot a rendered parameter stands for, with its column's encoder when it has one. */
const slotOf = (p: unknown): { name: string; encoder: unknown } | null =>
  p instanceof Placeholder
    ? { name: p.name, encoder: null }
    : p instanceof Param && p.value instanceof Placeholder
      ? { name: p.value.name, encoder: p.encoder }
      : null;

/** A string as a literal PostgreSQL reads the same whatever standard_conforming_strings says. */
export const textLiteral = (value: string): string => `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The same statement with one parameter per slot (and encoder) and constant strings as literals. Returns the
 * statement unchanged when its text does not hold exactly $1..$n once each in order (then it cannot be sure what
 * a `$` means), or when a constant string holds a NUL (no literal can).
 */
export function compactParams(rendered: RenderedStatement): RenderedStatement {
  const uses = [...rendered.sql.matchAll(PARAMETER)].map((m) => Number(m[1]));
  if (uses.length !== rendered.params.length || uses.some((n, i) => n !== i + 1)) return rendered;
  const params: unknown[] = [];
  const bySlot = new Map<string, number>();
  const encoders = new Map<unknown, number>();
  const replacement: string[] = [];
  for (const p of rendered.params) {
    const slot = slotOf(p);
    if (slot) {
      if (!encoders.has(slot.encoder)) encoders.set(slot.encoder, encoders.size);
      const key = `${slot.name}\u0000${encoders.get(slot.encoder)}`;
      let index = bySlot.get(key);
      if (index === undefined) {
        params.push(p);
        bySlot.set(key, (index = params.length));
      }
      replacement.push(`$${index}`);
    } else if (typeof p === 'string' && !p.includes('\u0000')) {
      replacement.push(textLiteral(p));
    } else {
      params.push(p);
      replacement.push(`$${params.length}`);
    }
  }
  return { sql: rendered.sql.replace(PARAMETER, (_, n: string) => replacement[Number(n) - 1]!), params };
}
