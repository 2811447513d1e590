// The language a request prefers among the ones we speak: the first of `supported` its Accept-Language header names
// (by the header's q values, then its order); the first supported language otherwise.

export function preferredLanguage<L extends string>(header: string | string[] | undefined, supported: readonly L[]): L {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranked = text
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), i };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  const hit = ranked.find((l) => (supported as readonly string[]).includes(l.lang));
  return (hit?.lang as L | undefined) ?? supported[0]!;
}
