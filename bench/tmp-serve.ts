import { createFirstAdmin } from '../e2e/support/fixtures';
import { startApp } from '../e2e/support/server';
const app = await startApp({ NODE_ENV: 'production' }, 'scripts/start.ts');
await createFirstAdmin(app.baseUrl);
console.log(app.baseUrl);
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
setInterval(() => {}, 1 << 30);
