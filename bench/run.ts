// npm run bench -- <benchmark> [options]. Benchmarks: search (patient search: raw SQL now, HTTP next to it).
import { runSearchBenchmark } from './search/run-search';

const BENCHMARKS: Record<string, (argv: string[]) => Promise<void>> = {
  search: runSearchBenchmark,
};

const [name, ...argv] = process.argv.slice(2);
const run = name ? BENCHMARKS[name] : undefined;
if (!run) {
  console.error(`Usage: npm run bench -- <${Object.keys(BENCHMARKS).join('|')}> [options]`);
  process.exit(2);
}
await run(argv);
