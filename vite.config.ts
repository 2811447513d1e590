import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

// CLIENT_DIR: where the server looks for the built client (config.ts), so `npm start` can build into it.
const outDir = path.resolve(process.env.CLIENT_DIR ?? 'dist/client');

/** Writes .br and .gz beside each text asset, so the server sends them pre-compressed (slow links). */
function precompress(): Plugin {
  return {
    name: 'nhr-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
        );
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg|json)$/.test(f))) {
        const data = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * Writes route-chunks.json: for each lazily loaded module (by its path under src/client), the files a browser fetches
 * to run it (its chunk and the chunks that chunk imports, less what the entry already brought). The server preloads
 * a page's screen with the page (src/server/http/index-page.ts), instead of after the entry has run (issue 21 item 18).
 */
function routeChunks(): Plugin {
  return {
    name: 'nhr-route-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, into = new Set<string>()): Set<string> => {
        if (into.has(file)) return into;
        into.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) closure(imported, into);
        return into;
      };
      const initial = new Set<string>();
      for (const c of chunks.filter((c) => c.isEntry)) closure(c.fileName, initial);
      const root = path.resolve('src/client');
      const modules: Record<string, string[]> = {};
      for (const c of chunks) {
        if (!c.isDynamicEntry || !c.facadeModuleId || c.fileName.includes('/locale-')) continue;
        const id = path.relative(root, c.facadeModuleId).split(path.sep).join('/');
        modules[id] = [...closure(c.fileName)].filter((f) => !initial.has(f));
      }
      this.emitFile({ type: 'asset', fileName: 'route-chunks.json', source: `${JSON.stringify({ modules }, null, 1)}\n` });
    },
  };
}

/**
 * Offline clinic mode's service worker and web app manifest (issue 27, decision 061). The worker precaches the app
 * shell (index.html, every script and stylesheet, the translation chunks of all three languages, the icons) and
 * answers navigations with index.html, so a device opens the app without a network; it never caches /api (nor the
 * FHIR, SMART and CDS Hooks routes). It is registered only on a device with offline mode switched on
 * (src/client/features/offline/service-worker.ts): nothing is injected into the page for everyone else. A new version
 * waits until the app's tabs are closed (no skipWaiting), so an open page keeps the chunks it was built with.
 */
function offlineShell(): Plugin[] {
  return VitePWA({
    injectRegister: false,
    registerType: 'prompt',
    filename: 'sw.js',
    manifestFilename: 'manifest.webmanifest',
    includeAssets: ['icons/icon.svg'],
    manifest: {
      name: 'National Health Records',
      short_name: 'Health Records',
      description: 'National Health Records — Namibia',
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0f766e',
      background_color: '#f8fafc',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/fhir\//, /^\/\.well-known\//, /^\/cds-services/],
      runtimeCaching: [],
      cleanupOutdatedCaches: true,
      skipWaiting: false,
      clientsClaim: false,
    },
  });
}

export default defineConfig({
  root: 'src/client',
  plugins: [react(), tailwindcss(), routeChunks(), offlineShell(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // Few requests for the first page (issue 21 item 18: on HTTP/1.1 a browser opens six connections, and a slow
        // link pays a round trip and about 400 bytes of headers per file): everything the entry needs statically is
        // one chunk, instead of about twenty shared chunks. (Translations come in a few files per language:
        // src/client/locales/bundles.ts.)
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
        // Each translation file or bundle is its own chunk named for its language (locale-<lang>-<namespace or
        // bundle>), so a page fetches only its language's (and a journey can see which it fetched).
        chunkFileNames: (chunk) => {
          const m = /locales\/([a-z]+)\/([a-z-]+)\.(json|ts)$/.exec(chunk.facadeModuleId ?? '');
          return m ? `assets/locale-${m[1]}-${m[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? 5000}` },
  },
});
