// `npm test`: formatting (Prettier), lint, typecheck, build the client, then every test (unit, API and browser journeys) in one Vitest run.
import { spawnSync } from 'node:child_process';

function step(name: string, command: string, args: string[]): void {
  console.log(`\n== ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
    console.log('\nTests: 0 passed, 1 failed');
    process.exit(result.status ?? 1);
  }
  console.log(`== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const bin = (name: string): string => `node_modules/.bin/${name}`;
step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
step('lint', bin('eslint'), ['--max-warnings', '0', '.']);
step('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
step('build client', bin('vite'), ['build', '--logLevel', 'warn']);
step('tests', bin('vitest'), ['run', ...process.argv.slice(2)]);
