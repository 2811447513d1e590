// `npm test`: formatting (Prettier), then lint, typecheck and the client build side by side (each is mostly one
// thread; together they take about half the time one after another on 2 cores), then every test (unit, API,
// component and browser journeys) in one Vitest run.
import { spawn, spawnSync } from 'node:child_process';

const bin = (name: string): string => `node_modules/.bin/${name}`;

function fail(name: string, code: number | null): never {
  console.error(`\n${name} failed (exit ${code ?? 'signal'}).`);
  console.log('\nTests: 0 passed, 1 failed');
  process.exit(code ?? 1);
}

function step(name: string, command: string, args: string[]): void {
  console.log(`\n== ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) fail(name, result.status);
  console.log(`== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

interface Check {
  name: string;
  command: string;
  args: string[];
}

/** Runs the checks at once; each one's output is printed whole when it ends, so the log stays readable. */
async function together(checks: Check[]): Promise<void> {
  console.log(`\n== ${checks.map((c) => c.name).join(', ')} (side by side)`);
  const results = await Promise.all(
    checks.map(
      (c) =>
        new Promise<{ check: Check; code: number | null; output: string; seconds: number }>((resolve) => {
          const started = Date.now();
          const child = spawn(c.command, c.args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (d: Buffer) => (output += d.toString()));
          child.stderr.on('data', (d: Buffer) => (output += d.toString()));
          child.on('close', (code) => {
            const seconds = (Date.now() - started) / 1000;
            if (output.trim()) console.log(`\n-- ${c.name}\n${output.trimEnd()}`);
            console.log(`== ${c.name}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
            resolve({ check: c, code, output, seconds });
          });
        }),
    ),
  );
  const failed = results.find((r) => r.code !== 0);
  if (failed) fail(failed.check.name, failed.code);
}

step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
await together([
  { name: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'build client', command: bin('vite'), args: ['build', '--logLevel', 'warn'] },
]);
step('tests', bin('vitest'), ['run', ...process.argv.slice(2)]);
