import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PG_CTL } from '../ops/postgres-user';

/** Whether pgBackRest and PostgreSQL 15's programs are installed. */
export function backupToolsInstalled(): boolean {
  return spawnSync('pgbackrest', ['version'], { stdio: 'ignore' }).status === 0 && existsSync(PG_CTL);
}
