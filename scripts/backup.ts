// npm run backup [-- --type full|diff|incr]: a pgBackRest backup of the stanza PGBACKREST_STANZA (default nhr) with
// the server's pgBackRest configuration (PGBACKREST_CONFIG, default /etc/pgbackrest/pgbackrest.conf), run as the
// postgres user when run as root, then `pgbackrest info`. Schedule it (README, Operations): a full backup weekly, a
// differential one nightly; WAL is archived continuously by the server's archive_command. Exit 1 when it failed.
import { parseArgs } from 'node:util';
import { runAsPostgres } from './ops/postgres-user';

const { values } = parseArgs({ options: { type: { type: 'string', default: 'diff' } } });
const type = values.type ?? 'diff';
if (!['full', 'diff', 'incr'].includes(type)) {
  console.error('--type must be full, diff or incr');
  process.exit(2);
}
const stanza = process.env.PGBACKREST_STANZA ?? 'nhr';
const config = process.env.PGBACKREST_CONFIG ?? '/etc/pgbackrest/pgbackrest.conf';
const common = [`--config=${config}`, `--stanza=${stanza}`];
try {
  const started = Date.now();
  runAsPostgres(['pgbackrest', ...common, 'backup', `--type=${type}`], `pgbackrest backup --type=${type}`);
  console.log(`${type} backup of ${stanza} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(runAsPostgres(['pgbackrest', ...common, 'info'], 'pgbackrest info'));
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
