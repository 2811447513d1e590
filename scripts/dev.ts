// `npm run dev`: the API server on API_PORT (default 5001) and Vite with hot reload on PORT (default 5000), proxying /api.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '5001';
const api = spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: apiPort, CLIENT_DIR: '/nonexistent' },
});
const { createServer } = await import('vite');
const vite = await createServer({ configFile: 'vite.config.ts', server: { port: Number(process.env.PORT ?? 5000) } });
process.env.API_PORT = apiPort;
await vite.listen();
vite.printUrls();
const stop = (): void => {
  api.kill('SIGTERM');
  void vite.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
