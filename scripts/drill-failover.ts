// npm run drill:failover: the failover drill (scripts/ha/failover-drill.ts) on this machine, with pg_auto_failover
// and PostgreSQL 15 installed (Debian: postgresql-15-auto-failover). Ports: HA_PORTS=monitor,node1,node2 (default
// 55440,55441,55442); the folders go under a new temporary directory and are removed afterwards.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runFailoverDrill } from './ha/failover-drill';
import { haToolsInstalled } from './ha/ha-pair';

if (!haToolsInstalled()) {
  console.error('pg_autoctl or PostgreSQL 15 is not installed (apt-get install postgresql-15-auto-failover).');
  process.exit(2);
}
const [monitor, node1, node2] = (process.env.HA_PORTS ?? '55440,55441,55442').split(',').map(Number);
const result = await runFailoverDrill({
  dir: mkdtempSync(path.join(tmpdir(), 'nhr-drill-')),
  ports: { monitor: monitor!, nodes: [node1!, node2!] },
});
console.log(JSON.stringify(result, null, 2));
const ok =
  result.lost === 0 &&
  result.duplicated === 0 &&
  result.unfinished === 0 &&
  result.outageSeconds <= 30 &&
  result.reportDuringFailover.id > 0;
console.log(ok ? 'drill passed' : 'DRILL FAILED: writes lost or duplicated, or the outage was longer than 30 s');
process.exit(ok ? 0 : 1);
