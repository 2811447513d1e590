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

export interface CpuReading {
  /** The server process and its descendants. */
  serverMs: number;
  /** Every process named postgres. */
  postgresMs: number;
}

/** One reading: CPU ms so far of `rootPid` with its descendants, and of PostgreSQL. */
export function readCpu(rootPid: number): CpuReading {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let serverMs = 0;
  const stack = stats.filter((s) => s.pid === rootPid);
  while (stack.length > 0) {
    const s = stack.pop()!;
    serverMs += s.cpuMs;
    stack.push(...(children.get(s.pid) ?? []));
  }
  const postgresMs = stats.filter((s) => s.comm === 'postgres').reduce((sum, s) => sum + s.cpuMs, 0);
  return { serverMs, postgresMs };
}

export const cpuSince = (before: CpuReading, after: CpuReading): CpuReading => ({
  serverMs: after.serverMs - before.serverMs,
  postgresMs: after.postgresMs - before.postgresMs,
});
