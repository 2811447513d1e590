// The app's one page (index.html), for every app route, in the reader's language (issue 21 item 18): `<html lang>`
// and a modulepreload of that language's core translations, so they download beside the app's script instead of
// after it has run (a round trip and more on a slow link, before anything can be shown in any language). The
// language: the `language` cookie the client keeps with its stored choice, then Accept-Language (what the client's
// detector reads next, from the browser's languages), then English. The three variants are made once, compressed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preferredLanguage } from './accept-language';

export const PAGE_LANGUAGES = ['en', 'af', 'ng'] as const;
type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The client's cookie with the reader's chosen language (src/client/lib/i18n.ts writes it). */
export const LANGUAGE_COOKIE = 'language';

interface Variant {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const isPageLanguage = (v: unknown): v is PageLanguage => (PAGE_LANGUAGES as readonly unknown[]).includes(v);

/** index.html with `lang` set and the language's core translations preloaded (when the build made such a file). */
export function pageInLanguage(html: string, lang: PageLanguage, assets: readonly string[]): string {
  const core = assets.find((f) => f.startsWith(`locale-${lang}-core-`) && f.endsWith('.js'));
  const withLang = html.replace(/<html lang="[a-z]*"/, `<html lang="${lang}"`);
  return core ? withLang.replace('</head>', `<link rel="modulepreload" crossorigin href="/assets/${core}">\n</head>`) : withLang;
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
  const variants = new Map<PageLanguage, Variant>(
    PAGE_LANGUAGES.map((lang) => {
      const page = Buffer.from(pageInLanguage(html, lang, assets));
      return [
        lang,
        {
          html: page,
          br: brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzip: gzipSync(page, { level: 9 }),
        },
      ];
    }),
  );
  return {
    send(request, reply) {
      const chosen = request.cookies[LANGUAGE_COOKIE];
      const lang = isPageLanguage(chosen) ? chosen : preferredLanguage(request.headers['accept-language'], PAGE_LANGUAGES);
      const variant = variants.get(lang)!;
      const accepts = String(request.headers['accept-encoding'] ?? '');
      reply.header('cache-control', 'no-cache').header('vary', 'Cookie, Accept-Language, Accept-Encoding').type('text/html; charset=utf-8');
      if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(variant.br);
      if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(variant.gzip);
      return reply.send(variant.html);
    },
  };
}
