// npm run bench -- client [--no-build]
// The initial JavaScript of the built client (DESIGN.md §10: <= 150 KB gzip): the entry script of
// dist/client/index.html and its modulepreload links, each gzipped at level 9 (as the server sends them, the
// .gz written at build time) and summed. Lazily loaded screens are not counted. Builds first (npx vite build)
// when dist/client/index.html is missing. Writes bench/results/client-size.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isMain } from './bench-database';

export const INITIAL_JS_BUDGET_KB = 150;

export interface ClientSizeResult {
  budgetKb: number;
  /** Gzip size of the initial JavaScript, KB (1 KB = 1,024 bytes). */
  initialJsGzipKb: number;
  initialJsBrotliKb: number;
  initialJsRawKb: number;
  withinBudget: boolean;
  files: { file: string; kind: 'entry' | 'modulepreload'; rawBytes: number; gzipBytes: number; brotliBytes: number }[];
  /** Stylesheets linked from index.html, gzip KB (not part of the JavaScript budget). */
  cssGzipKb: number;
}

const kb = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;

export function measureClientSize(clientDir = path.resolve('dist/client')): ClientSizeResult {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const entries = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((t) => attr(t, 'type') === 'module' && attr(t, 'src'));
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]);
  const preloads = links.filter((t) => attr(t, 'rel') === 'modulepreload');
  const styles = links.filter((t) => attr(t, 'rel') === 'stylesheet');
  if (entries.length === 0) throw new Error(`No module entry script in ${clientDir}/index.html`);
  const read = (href: string): Buffer => readFileSync(path.join(clientDir, href.replace(/^\//, '').split(/[?#]/)[0]!));
  const files = [
    ...entries.map((t) => ({ href: attr(t, 'src')!, kind: 'entry' as const })),
    ...preloads.map((t) => ({ href: attr(t, 'href')!, kind: 'modulepreload' as const })),
  ]
    .filter((f, i, all) => all.findIndex((g) => g.href === f.href) === i)
    .map(({ href, kind }) => {
      const data = read(href);
      return {
        file: href,
        kind,
        rawBytes: data.length,
        gzipBytes: gzipSync(data, { level: 9 }).length,
        brotliBytes: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
    });
  const sum = (f: (x: (typeof files)[number]) => number): number => files.reduce((a, x) => a + f(x), 0);
  const gzip = kb(sum((f) => f.gzipBytes));
  return {
    budgetKb: INITIAL_JS_BUDGET_KB,
    initialJsGzipKb: gzip,
    initialJsBrotliKb: kb(sum((f) => f.brotliBytes)),
    initialJsRawKb: kb(sum((f) => f.rawBytes)),
    withinBudget: gzip <= INITIAL_JS_BUDGET_KB,
    files,
    cssGzipKb: kb(styles.reduce((a, t) => a + gzipSync(read(attr(t, 'href')!), { level: 9 }).length, 0)),
  };
}

export async function runClientSizeBenchmark(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'no-build': { type: 'boolean', default: false } } });
  const clientDir = path.resolve('dist/client');
  if (!existsSync(path.join(clientDir, 'index.html'))) {
    if (values['no-build']) throw new Error(`${clientDir}/index.html is missing: build first (npx vite build)`);
    process.stderr.write('dist/client is missing: building with npx vite build...\n');
    const built = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`vite build exited with ${built.status}`);
  }
  const result = measureClientSize(clientDir);
  const w = Math.max(...result.files.map((f) => f.file.length));
  console.log(`Initial JavaScript of ${path.relative(process.cwd(), clientDir)}/index.html (KB = 1,024 bytes)`);
  console.log(`| ${'file'.padEnd(w)} | kind          |   raw KB |  gzip KB | brotli KB |`);
  console.log(`|${'-'.repeat(w + 2)}|---------------|---------:|---------:|----------:|`);
  for (const f of result.files) {
    console.log(
      `| ${f.file.padEnd(w)} | ${f.kind.padEnd(13)} | ${kb(f.rawBytes).toFixed(1).padStart(8)} | ${kb(f.gzipBytes).toFixed(1).padStart(8)} | ${kb(f.brotliBytes).toFixed(1).padStart(9)} |`,
    );
  }
  console.log(
    `| ${'total'.padEnd(w)} |               | ${result.initialJsRawKb.toFixed(1).padStart(8)} | ${result.initialJsGzipKb.toFixed(1).padStart(8)} | ${result.initialJsBrotliKb.toFixed(1).padStart(9)} |`,
  );
  console.log(
    `\ninitial JavaScript ${result.initialJsGzipKb} KB gzip of a ${result.budgetKb} KB budget: ${result.withinBudget ? 'within' : 'OVER'} budget (CSS ${result.cssGzipKb} KB gzip, not counted)`,
  );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/client-size.json', `${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write('Written to bench/results/client-size.json\n');
}

if (isMain(import.meta.url)) await runClientSizeBenchmark(process.argv.slice(2));
