// Deterministic misspellings for the fuzzy targets: edits only touch letters, never spaces or hyphens.
import type { Rng } from '../generator/random';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function letterPositions(name: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < name.length; i++) if (/\p{L}/u.test(name[i]!)) out.push(i);
  return out;
}

function otherLetter(rng: Rng, not: string): string {
  let c = not;
  while (c === not.toLowerCase()) c = rng.pick([...LETTERS]);
  return c;
}

/** One substitution, insertion or deletion at a letter. */
export function oneEdit(rng: Rng, name: string): string {
  const positions = letterPositions(name);
  const i = rng.pick(positions);
  const op = rng.int(0, 2);
  if (op === 0) return name.slice(0, i) + otherLetter(rng, name[i]!) + name.slice(i + 1);
  if (op === 1) return name.slice(0, i) + rng.pick([...LETTERS]) + name.slice(i);
  return name.slice(0, i) + name.slice(i + 1);
}

/** Two edits at different places. */
export function twoEdits(rng: Rng, name: string): string {
  let out = oneEdit(rng, name);
  for (let tries = 0; tries < 10; tries++) {
    const next = oneEdit(rng, out);
    if (next.toLowerCase() !== name.toLowerCase()) {
      out = next;
      break;
    }
  }
  return out;
}

/** Two neighbouring, different letters swapped; null when the name has none. */
export function swapLetters(rng: Rng, name: string): string | null {
  const candidates = letterPositions(name).filter(
    (i) => /\p{L}/u.test(name[i + 1] ?? '') && name[i]!.toLowerCase() !== name[i + 1]!.toLowerCase(),
  );
  if (candidates.length === 0) return null;
  const i = rng.pick(candidates);
  return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
}

/** The name as typed on a keyboard without accents: 'Müller' -> 'Muller', 'Straßer' -> 'Strasser'. */
export function dropDiacritics(name: string): string {
  return name
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

export function letterCount(name: string): number {
  return letterPositions(name).length;
}
