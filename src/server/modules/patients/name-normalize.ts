// The application-side twin of the database's nhr_norm(): lower case, accents dropped, only [a-z0-9] kept.
// Used on search input; the stored columns are normalized by the database itself.

/** Letters that do not decompose into a base letter plus accent, spelled the way unaccent spells them. */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
  ĸ: 'k',
  ŋ: 'n',
  Ŋ: 'n',
  ŧ: 't',
  Ŧ: 't',
  ħ: 'h',
  Ħ: 'h',
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');

/** Lower case without accents, punctuation and spaces kept. */
export function foldAccents(value: string): string {
  return value
    .replace(SPECIAL_RE, (c) => SPECIAL[c]!)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function normalizeName(value: string): string {
  return foldAccents(value).replace(/[^a-z0-9]+/g, '');
}

/** The words of a search string, each normalized; words that normalize to nothing are dropped. */
export function nameWords(value: string): string[] {
  return foldAccents(value)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Lower case with punctuation and spaces removed but accents kept: tells 'Muller' from 'Müller'. */
export function lowerLetters(value: string): string {
  return value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
