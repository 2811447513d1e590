// The app's one page (index.html), for every app route, in the reader's language and with what that route's first
// screen needs preloaded (issue 21 item 18): each file a slow link would otherwise fetch only after the app's script
// has downloaded and run (a round trip and more each, on top of the download) starts beside that script instead.
// - The language: the `language` cookie the client keeps with its stored choice, then Accept-Language (what the
//   client's language choice in src/client/lib/i18n.ts reads next, from the browser's languages), then English. `<html lang>` and a modulepreload of
//   that language's core translations.
// - The first answers the client asks for (the setup status; on staff pages the signed-in user), as fetch preloads
//   that the client's own requests then use.
// - The screen of the route, when the route says which (the patient's pages) or a session cookie says someone is
//   signed in (the dashboard, a record's link, the portal): its chunks (route-chunks.json, written by the build) and
//   its translation files in that language. Without a session cookie nothing of the signed-in screens is preloaded.
// Each variant is made once, compressed, when first asked for.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../context/session';
import { preferredLanguage } from './accept-language';

export const PAGE_LANGUAGES = ['en', 'af', 'ng'] as const;
type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The client's cookie with the reader's chosen language (src/client/lib/i18n.ts writes it). */
export const LANGUAGE_COOKIE = 'language';

/** The kinds of first page, by what they need. */
export type PageKind = 'staff' | 'dashboard' | 'record' | 'patient-login' | 'patient-activate' | 'patient-portal';

/**
 * What each kind of page loads besides the entry: the client's lazily loaded modules (paths under src/client, as
 * src/client/app/router.tsx and first-requests.ts load them) and translation files (locale-<lang>-<name>: a bundle of
 * src/client/locales/bundles.ts or a namespace that travels alone), and the API answers its first render waits for.
 */
export const PAGE_NEEDS: Record<PageKind, { modules: string[]; locales: string[]; api: string[] }> = {
  staff: { modules: [], locales: [], api: ['/api/setup/status', '/api/auth/user'] },
  dashboard: { modules: ['app/dashboard-screen.tsx'], locales: ['staff', 'privacy'], api: ['/api/setup/status', '/api/auth/user'] },
  record: {
    modules: ['app/dashboard-screen.tsx', 'features/record/components/patient-record.tsx'],
    locales: ['staff', 'privacy', 'record'],
    api: ['/api/setup/status', '/api/auth/user'],
  },
  'patient-login': { modules: ['features/portal/components/patient-login-screen.tsx'], locales: ['portal'], api: ['/api/setup/status'] },
  'patient-activate': {
    modules: ['features/portal/components/patient-activate-screen.tsx'],
    locales: ['portal'],
    api: ['/api/setup/status'],
  },
  'patient-portal': {
    // Not the vaccines tab's schedule card (immunization-status.tsx): it loads when that tab is first shown.
    modules: ['features/portal/components/portal-screen.tsx', 'features/record/kinds/index.ts'],
    locales: ['portal', 'privacy', 'record'],
    api: ['/api/setup/status'],
  },
};

/** The kind of first page a request asks for: its path, and whether it carries a session cookie. */
export function pageKindOf(url: string, signedIn: boolean): PageKind {
  const [pathname = '/', search = ''] = url.split('?');
  if (pathname === '/patient-login') return 'patient-login';
  if (pathname === '/patient-activate') return 'patient-activate';
  if (pathname === '/patient-portal') return signedIn ? 'patient-portal' : 'patient-login';
  if (!signedIn || pathname === '/login') return 'staff';
  return pathname === '/' && /(^|&)patient=/.test(search) ? 'record' : 'dashboard';
}

interface Variant {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const isPageLanguage = (v: unknown): v is PageLanguage => (PAGE_LANGUAGES as readonly unknown[]).includes(v);

/** The build's list of the chunks each lazily loaded module needs (vite.config.ts, routeChunks). */
export type RouteChunks = Record<string, string[]>;

/** index.html with `lang` set and the language's core translations preloaded (when the build made such a file). */
export function pageInLanguage(
  html: string,
  lang: PageLanguage,
  assets: readonly string[],
  kind: PageKind = 'staff',
  routeChunks: RouteChunks = {},
): string {
  const locale = (name: string): string | undefined => assets.find((f) => f.startsWith(`locale-${lang}-${name}-`) && f.endsWith('.js'));
  const needs = PAGE_NEEDS[kind];
  const scripts = [
    ...[locale('core'), ...needs.locales.map(locale)].filter((f): f is string => f !== undefined).map((f) => `/assets/${f}`),
    ...needs.modules.flatMap((m) => routeChunks[m] ?? []).map((f) => `/${f}`),
  ].filter((f, i, all) => all.indexOf(f) === i);
  const links = [
    ...scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    // The client's fetches send credentials ('include'), so the preloads do too, and the two match.
    ...needs.api.map((href) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${href}">`),
  ];
  const withLang = html.replace(/<html lang="[a-z]*"/, `<html lang="${lang}"`);
  return withLang.replace('</head>', `${links.map((l) => `${l}\n`).join('')}</head>`);
}

export interface IndexPage {
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

export function loadIndexPage(clientDir: string): IndexPage {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  let assets: string[] = [];
  try {
    assets = readdirSync(path.join(clientDir, 'assets'));
  } catch {
    // A client without assets (a test's stand-in page): the page as it is.
  }
  const chunksFile = path.join(clientDir, 'route-chunks.json');
  const routeChunks = existsSync(chunksFile) ? (JSON.parse(readFileSync(chunksFile, 'utf8')) as { modules: RouteChunks }).modules : {};
  const variants = new Map<string, Variant>();
  const variant = (lang: PageLanguage, kind: PageKind): Variant => {
    const key = `${lang} ${kind}`;
    let made = variants.get(key);
    if (!made) {
      const page = Buffer.from(pageInLanguage(html, lang, assets, kind, routeChunks));
      made = {
        html: page,
        br: brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(page, { level: 9 }),
      };
      variants.set(key, made);
    }
    return made;
  };
  return {
    send(request, reply) {
      const chosen = request.cookies[LANGUAGE_COOKIE];
      const lang = isPageLanguage(chosen) ? chosen : preferredLanguage(request.headers['accept-language'], PAGE_LANGUAGES);
      const page = variant(lang, pageKindOf(request.url, Boolean(request.cookies[SESSION_COOKIE])));
      const accepts = String(request.headers['accept-encoding'] ?? '');
      reply.header('cache-control', 'no-cache').header('vary', 'Cookie, Accept-Language, Accept-Encoding').type('text/html; charset=utf-8');
      if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(page.br);
      if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(page.gzip);
      return reply.send(page.html);
    },
  };
}
