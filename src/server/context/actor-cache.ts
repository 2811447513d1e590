// Each worker keeps the actors of the sessions it served (decision 028), staff and patients, so the hot routes
// (search, record open, the portal's read) need not read the actor in a statement of its own: their one statement
// confirms the cached actor (actorCheckSlotted) and does the work only when it is still the same. The cache is never
// trusted alone.
import type { Actor } from './actor';

export interface CachedActor {
  actor: Actor;
  /** loadSessionActor's fingerprint of what the actor was built from. */
  fingerprint: string;
}

/** The most recently used sessions' actors, at most `max` of them. */
export class ActorCache {
  private readonly entries = new Map<string, CachedActor>();
  /** Requests served from the cache (for tests and the benchmark). */
  hits = 0;

  constructor(private readonly max = 10_000) {}

  get(sid: string): CachedActor | undefined {
    const entry = this.entries.get(sid);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order, so the first key is the least recently used.
    this.entries.delete(sid);
    this.entries.set(sid, entry);
    this.hits++;
    return entry;
  }

  set(sid: string, entry: CachedActor): void {
    this.entries.delete(sid);
    this.entries.set(sid, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(sid: string): void {
    this.entries.delete(sid);
  }

  get size(): number {
    return this.entries.size;
  }
}
