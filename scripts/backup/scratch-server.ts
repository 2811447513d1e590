// One PostgreSQL 15 server of its own for the backup and restore drill: its own folder, port and socket folder,
// started and stopped with pg_ctl as the postgres user.
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PG_BIN, PG_CTL, prepareDir, runAsPostgres, sleep } from '../ops/postgres-user';

export class ScratchServer {
  constructor(
    readonly pgdata: string,
    readonly port: number,
    /** The folder of its Unix socket (short: a socket path has at most 107 characters). */
    readonly socketDir: string,
  ) {}

  url(dbname = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${dbname}`;
  }

  /** initdb with trust for local connections, then `settings` appended to postgresql.conf. */
  init(settings: Record<string, string>): void {
    prepareDir(path.dirname(this.pgdata));
    prepareDir(this.socketDir);
    runAsPostgres(
      [path.join(PG_BIN, 'initdb'), '-D', this.pgdata, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'],
      'initdb',
    );
    this.configure(settings);
  }

  configure(settings: Record<string, string>): void {
    const lines = Object.entries(settings).map(([k, v]) => `${k} = '${v.replaceAll("'", "''")}'`);
    appendFileSync(path.join(this.pgdata, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
  }

  start(): void {
    runAsPostgres(
      [
        PG_CTL,
        'start',
        '-w',
        '-t',
        '120',
        '-D',
        this.pgdata,
        '-l',
        `${this.pgdata}.log`,
        '-o',
        `-p ${this.port} -k ${this.socketDir} -c listen_addresses=127.0.0.1`,
      ],
      `start the server in ${this.pgdata}`,
    );
  }

  stop(): void {
    if (existsSync(path.join(this.pgdata, 'postmaster.pid')))
      runAsPostgres([PG_CTL, 'stop', '-w', '-D', this.pgdata, '-m', 'fast'], 'stop the server');
  }

  async query<T extends pg.QueryResultRow>(text: string, dbname = 'postgres'): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.url(dbname) });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }

  /** Waits until the server accepts writes (a restored server has finished its recovery and been promoted). */
  async waitForPrimary(timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby').catch(() => null);
      if (rows && rows[0]?.standby === false) return;
      if (Date.now() > deadline) throw new Error(`the server in ${this.pgdata} did not finish its recovery`);
      await sleep(250);
    }
  }
}
