// `npm start`: build the client if it is not built, then start the server (which applies migrations).
import { existsSync } from 'node:fs';
import path from 'node:path';

const clientIndex = path.resolve(process.env.CLIENT_DIR ?? 'dist/client', 'index.html');
if (!existsSync(clientIndex)) {
  console.log('Building the client (first start)...');
  const { build } = await import('vite');
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn' });
}
await import('../src/server/main');
