// `npm start`: build the client if it is not built, then start the server (which applies migrations).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const clientIndex = path.resolve(process.env.CLIENT_DIR ?? 'dist/client', 'index.html');
if (!existsSync(clientIndex)) {
  console.log('Building the client (first start)...');
  // In a child process: Vite's build sets NODE_ENV=production in the process that runs it, and the server's mode
  // (HSTS, upgrade-insecure-requests, Secure cookies) must come only from the NODE_ENV the operator set.
  const vite = path.resolve('node_modules/vite/bin/vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: process.env });
  if (built.status !== 0) {
    console.error('The client build failed; see the messages above.');
    process.exit(built.status ?? 1);
  }
}
await import('../src/server/main');
