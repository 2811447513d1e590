// CPU time from /proc (Linux): of a process and its descendants (the server's primary and its workers), and of every
// PostgreSQL server process on the machine (backends, WAL writer, checkpointer...). Differences of two readings
// divided by the requests between them give the CPU per request of each side.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, in ms. */
  cpuMs: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after the last ')' are fixed.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // After the name: state(0) ppid(1) ... utime(11) stime(12)
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      comm,
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}

function allStats(): ProcStat[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(readStat)
    .filter((s): s is ProcStat => s !== null);
}

/** The node processes right below `rootPid` (the server's workers; not tsx's esbuild service). */
export function nodeChildrenOf(rootPid: number): number[] {
  return allStats()
    .filter((s) => s.ppid === rootPid && s.comm === 'node')
    .map((s) => s.pid);
}

export interface CpuReading {
  /** The server process and its descendants. */
  serverMs: number;
  /** Every process named postgres. */
  postgresMs: number;
}

/**
 * CPU used between start and stop, read every `everyMs`: each process counts from its first reading (0 for one born
 * since start) to its last, so a PostgreSQL backend that ends between two readings (a pool closing an idle
 * connection) keeps what it used until its last reading instead of taking it out of the sum.
 */
export function cpuSampler(rootPid: number, everyMs = 250): { stop(): CpuReading } {
  const first = new Map<number, number>();
  const last = new Map<number, { cpuMs: number; side: 'server' | 'postgres' }>();
  const read = (initial: boolean): void => {
    const stats = allStats();
    const children = new Map<number, ProcStat[]>();
    for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
    const server = new Set<number>();
    const stack = stats.filter((s) => s.pid === rootPid);
    while (stack.length > 0) {
      const s = stack.pop()!;
      server.add(s.pid);
      stack.push(...(children.get(s.pid) ?? []));
    }
    for (const s of stats) {
      const side = server.has(s.pid) ? 'server' : s.comm === 'postgres' ? 'postgres' : null;
      if (!side) continue;
      if (!first.has(s.pid)) first.set(s.pid, initial ? s.cpuMs : 0);
      last.set(s.pid, { cpuMs: s.cpuMs, side });
    }
  };
  read(true);
  const timer = setInterval(() => read(false), everyMs);
  return {
    stop() {
      clearInterval(timer);
      read(false);
      const used: CpuReading = { serverMs: 0, postgresMs: 0 };
      for (const [pid, { cpuMs, side }] of last) used[side === 'server' ? 'serverMs' : 'postgresMs'] += cpuMs - (first.get(pid) ?? 0);
      return used;
    },
  };
}
