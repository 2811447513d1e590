// A primary and a synchronous standby on one machine, managed by pg_auto_failover (issue 28 item 1, decision 055):
// a monitor and two PostgreSQL 15 nodes, each in its own folder under `dir` and on its own port, each node run by
// its keeper (`pg_autoctl run`) in its own process group so a drill can kill a whole "server" (keeper and
// postmaster) at once. For tests and drills on this machine; a production pair runs the same commands on two
// servers (README, Operations). pg_auto_failover keeps `synchronous_standby_names` set while the standby is healthy,
// so an acknowledged commit is on both servers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { asPostgres, PG_BIN, PG_CTL, prepareDir, runAsPostgres, sleep } from '../ops/postgres-user';

export interface PairPorts {
  monitor: number;
  nodes: [number, number];
}

export interface NodeInfo {
  name: string;
  port: number;
  pgdata: string;
}

/**
 * The monitor's health checks, faster than pg_auto_failover's defaults (a check every 5 s, a node unhealthy after
 * 20 s) so that a lost primary is replaced well within the 30 s the issue allows; still several missed checks in a
 * row, so one slow answer does not fail a healthy primary over (decision 055).
 */
export const MONITOR_SETTINGS: Record<string, string> = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '2',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '6000',
  // How long the standby waits in stop_replication for the lost primary to demote itself before it is promoted
  // (default 30 s). It must exceed the keepers' network partition timeout below, after which a primary that lost
  // the monitor and its standby demotes itself: no two primaries at once. A commit on a cut-off primary cannot be
  // acknowledged meanwhile anyway: it waits for the synchronous standby.
  'pgautofailover.primary_demote_timeout': '10000',
};

/** The keepers' settings (`pg_autoctl config set`): a cut-off primary demotes itself after 8 s (default 20 s). */
export const KEEPER_SETTINGS: Record<string, string> = {
  'timeout.network_partition_timeout': '8',
};

export function haToolsInstalled(): boolean {
  return spawnSync('pg_autoctl', ['--version'], { stdio: 'ignore' }).status === 0 && existsSync(PG_CTL);
}

export class HaPair {
  readonly monitorUrl: string;
  readonly nodes: [NodeInfo, NodeInfo];
  private readonly keepers = new Map<string, ChildProcess>();
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly dir: string,
    readonly ports: PairPorts,
    readonly dbname = 'nhr',
  ) {
    this.monitorUrl = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
    this.nodes = [
      { name: 'node1', port: ports.nodes[0], pgdata: path.join(dir, 'node1') },
      { name: 'node2', port: ports.nodes[1], pgdata: path.join(dir, 'node2') },
    ];
    // pg_autoctl keeps its configuration and state under XDG folders: this pair's own, not the user's.
    this.env = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'share'),
      PG_CONFIG: path.join(PG_BIN, 'pg_config'),
    };
  }

  /** The application's connection string: both nodes, libpq's form, the primary chosen at connect time. */
  get databaseUrl(): string {
    return `postgres://postgres@${this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${this.dbname}?target_session_attrs=read-write`;
  }

  /** DATABASE_READ_URL for the pair (decision 058): both nodes, the standby preferred, the primary when it is alone. */
  get readUrl(): string {
    return this.databaseUrl.replace('target_session_attrs=read-write', 'target_session_attrs=prefer-standby');
  }

  nodeUrl(node: NodeInfo, dbname = this.dbname): string {
    return `postgres://postgres@127.0.0.1:${node.port}/${dbname}`;
  }

  private run(args: string[], what: string): string {
    return runAsPostgres(args, what, { env: this.env, cwd: this.dir });
  }

  private startKeeper(name: string, pgdata: string): void {
    const [cmd, rest] = asPostgres(['pg_autoctl', 'run', '--pgdata', pgdata]);
    const child = spawn(cmd, rest, { env: this.env, cwd: this.dir, detached: true, stdio: 'ignore' });
    child.unref();
    this.keepers.set(name, child);
  }

  /** Creates the monitor and both nodes (node1 the first primary) and waits until node2 is its synchronous standby. */
  async start(): Promise<void> {
    prepareDir(this.dir);
    const common = ['--pgctl', PG_CTL, '--auth', 'trust', '--no-ssl', '--hostname', '127.0.0.1'];
    this.run(
      ['pg_autoctl', 'create', 'monitor', '--pgdata', path.join(this.dir, 'monitor'), '--pgport', String(this.ports.monitor), ...common],
      'create monitor',
    );
    this.startKeeper('monitor', path.join(this.dir, 'monitor'));
    await this.waitFor(
      async () => (await this.query(`postgres://postgres@127.0.0.1:${this.ports.monitor}/pg_auto_failover`, 'SELECT 1')) !== null,
      'the monitor',
    );
    const monitorAdmin = `postgres://postgres@127.0.0.1:${this.ports.monitor}/pg_auto_failover`;
    for (const [name, value] of Object.entries(MONITOR_SETTINGS)) await this.query(monitorAdmin, `ALTER SYSTEM SET ${name} = '${value}'`);
    await this.query(monitorAdmin, 'SELECT pg_reload_conf()');
    for (const node of this.nodes) {
      this.run(
        [
          'pg_autoctl',
          'create',
          'postgres',
          '--pgdata',
          node.pgdata,
          '--pgport',
          String(node.port),
          '--name',
          node.name,
          '--dbname',
          this.dbname,
          '--monitor',
          this.monitorUrl,
          '--pg-hba-lan',
          ...common,
        ],
        `create ${node.name}`,
      );
      for (const [name, value] of Object.entries(KEEPER_SETTINGS))
        this.run(['pg_autoctl', 'config', 'set', '--pgdata', node.pgdata, name, value], `config set ${name} on ${node.name}`);
      this.startKeeper(node.name, node.pgdata);
      await this.waitForStates(node === this.nodes[0] ? { node1: 'single' } : { node1: 'primary', node2: 'secondary' });
    }
  }

  /** Each node's current state as the monitor reports it (`pg_autoctl show state`). */
  async states(): Promise<Record<string, { reported: string; assigned: string }>> {
    const rows = await this.query<{ nodename: string; reportedstate: string; goalstate: string }>(
      `postgres://postgres@127.0.0.1:${this.ports.monitor}/pg_auto_failover`,
      'SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node',
    );
    return Object.fromEntries((rows ?? []).map((r) => [r.nodename, { reported: r.reportedstate, assigned: r.goalstate }]));
  }

  async waitForStates(want: Record<string, string>, timeoutMs = 120_000): Promise<void> {
    await this.waitFor(
      async () => {
        const states = await this.states();
        return Object.entries(want).every(([name, state]) => states[name]?.reported === state && states[name]?.assigned === state);
      },
      `states ${JSON.stringify(want)}`,
      timeoutMs,
    );
  }

  /** Which node is the primary now (reported and assigned), or null. */
  async primary(): Promise<NodeInfo | null> {
    // On a loaded machine one question to the monitor may time out: ask again for up to 30 s before saying none.
    let states = await this.states();
    for (let tries = 0; Object.keys(states).length === 0 && tries < 60; tries++) {
      await sleep(500);
      states = await this.states();
    }
    return (
      this.nodes.find(
        (n) =>
          ['primary', 'single', 'wait_primary'].includes(states[n.name]?.reported ?? '') &&
          states[n.name]?.assigned === states[n.name]?.reported,
      ) ?? null
    );
  }

  /** The loss of a server: SIGKILL to its keeper's whole process group and to its postmaster. */
  killNode(node: NodeInfo): void {
    const keeper = this.keepers.get(node.name);
    if (keeper?.pid) {
      try {
        process.kill(-keeper.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const pidFile = path.join(node.pgdata, 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      try {
        if (pid > 0) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Starts a node's keeper again: a node that was primary rejoins as the standby (pg_rewind if needed). */
  restartNode(node: NodeInfo): void {
    this.startKeeper(node.name, node.pgdata);
  }

  /** Stops every keeper and server, then leaves the folder for the caller to remove. */
  async stop(): Promise<void> {
    for (const [name, keeper] of this.keepers) {
      if (!keeper.pid) continue;
      try {
        process.kill(-keeper.pid, 'SIGTERM');
      } catch {
        this.keepers.delete(name);
      }
    }
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && [...this.keepers.values()].some((k) => k.pid && alive(-k.pid))) await sleep(200);
    for (const keeper of this.keepers.values()) if (keeper.pid && alive(-keeper.pid)) process.kill(-keeper.pid, 'SIGKILL');
    // A postmaster left behind (its keeper killed first) is stopped by its data folder.
    for (const pgdata of [...this.nodes.map((n) => n.pgdata), path.join(this.dir, 'monitor')]) {
      if (existsSync(path.join(pgdata, 'postmaster.pid'))) {
        const [cmd, rest] = asPostgres([PG_CTL, 'stop', '-D', pgdata, '-m', 'immediate']);
        spawnSync(cmd, rest, { stdio: 'ignore' });
      }
    }
    this.keepers.clear();
  }

  async query<T>(url: string, text: string): Promise<T[] | null> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query<T & pg.QueryResultRow>(text)).rows;
    } catch {
      return null;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await sleep(250);
    }
    throw new Error(`Timed out waiting for ${what}; node states: ${JSON.stringify(await this.states().catch(() => null))}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
