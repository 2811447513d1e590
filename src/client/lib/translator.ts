// The translator (issue 21 item 18): the few rules of i18next the app uses, in place of i18next and react-i18next,
// which were 15 % of the first page's script. Translations live per language and namespace (the JSON files of
// src/client/locales, added as they are downloaded: lib/i18n.ts); a key is looked up in one language only, since the
// keys are identical in en, af and ng (locales.test.ts) and only the page's language is downloaded.
//
// The rules, each as i18next applied them here:
// - `ns:key` picks the namespace; a key without one is looked up in the translator's namespace (useTranslation's
//   first namespace), never searched for across several.
// - Dots walk nested objects: `errors.LOCKED_OUT`.
// - `{{name}}` takes the option of that name, unescaped (React escapes); null or an option given as undefined gives
//   '', a name not given at all stays as written.
// - A numeric `count` picks `key_one` or `key_other` by the language's plural rule, then falls back to `key`.
// - A key that is not found gives `defaultValue` when the lookup brings one (no report: such lookups expect misses);
//   otherwise the key itself, reported on the console, where every journey looks.
// - `lng` looks the key up in another language (whose translations must have been added).

/** A namespace's translations as its JSON file holds them. */
export interface Resources {
  [key: string]: string | Resources;
}

/** A lookup's options: `count` (plural), `defaultValue`, `lng`, and any interpolation values. */
export interface TOptions {
  count?: number | string;
  defaultValue?: string;
  lng?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string, options?: TOptions) => string;

/** `ns:key`, where ns is a plain word; text such as a server message ("Invalid input: ...") is a key as a whole. */
const NAMESPACED = /^([\w-]+):(.+)$/;
const PLACEHOLDER = /{{(.+?)}}/g;

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * The language's plural rule. Oshiwambo (ng) has no CLDR data: `Intl.PluralRules('ng')` silently takes the runtime's
 * default locale, which i18next used as it came (English's rule on English machines). We name English's rule
 * (1 is one, anything else other) so the output no longer depends on the machine.
 */
function pluralRule(lang: string): Intl.PluralRules {
  let rule = pluralRules.get(lang);
  if (!rule) {
    rule = new Intl.PluralRules(Intl.PluralRules.supportedLocalesOf(lang).length > 0 ? lang : 'en');
    pluralRules.set(lang, rule);
  }
  return rule;
}

/** Fills `{{name}}` from the options (see the rules above). */
function interpolate(text: string, options: TOptions): string {
  return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    const name = inner.trim();
    const value = options[name];
    if (value === undefined) return Object.hasOwn(options, name) ? '' : placeholder;
    // String() as i18next did (numbers and text in practice).
    return value === null ? '' : String(value);
  });
}

/** A nested value by dotted path; only a string counts as found. */
function find(bundle: Resources | undefined, path: string): string | undefined {
  let node: string | Resources | undefined = bundle;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export class Translator {
  private readonly bundles = new Map<string, Resources>();
  private readonly listeners = new Set<() => void>();
  /** The page-language translators handed to components, per namespace, until the next change (current()). */
  private readonly handedOut = new Map<string, TFunction>();

  constructor(
    /** The page's language. */
    public language: string,
    /** The namespace of a key without `ns:` when no other is given. */
    private readonly defaultNS: string,
  ) {}

  hasResourceBundle(lang: string, ns: string): boolean {
    return this.bundles.has(`${lang}|${ns}`);
  }

  /** Adds (or replaces) one language's translations of one namespace; components re-render. */
  addResourceBundle(lang: string, ns: string, resources: Resources): void {
    this.bundles.set(`${lang}|${ns}`, resources);
    this.changed();
  }

  /** Switches the page's language (its translations must have been added first: lib/i18n.ts changeLanguage). */
  changeLanguage(lang: string): void {
    if (lang === this.language) return;
    this.language = lang;
    this.changed();
  }

  /** Calls `listener` after every change of language or translations; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Whether the key has a translation in the page's language. */
  exists(key: string): boolean {
    const [ns, path] = this.split(key, this.defaultNS);
    return find(this.bundles.get(`${this.language}|${ns}`), path) !== undefined;
  }

  /** Translates in the page's language, keys without `ns:` in the default namespace. */
  readonly t: TFunction = (key, options) => this.translate(key, options ?? {}, undefined, this.defaultNS);

  /** A translation function in a fixed language (a printed slip in the patient's language) and namespace. */
  getFixedT(lang: string, ns: string): TFunction {
    return (key, options) => this.translate(key, options ?? {}, lang, ns);
  }

  /**
   * The page-language translation function of a namespace: the same function until the language or the
   * translations change, then a new one, so that React (useSyncExternalStore, and memos that depend on `t`)
   * sees the change.
   */
  current(ns: string = this.defaultNS): TFunction {
    let t = this.handedOut.get(ns);
    if (!t) {
      t = (key, options) => this.translate(key, options ?? {}, undefined, ns);
      this.handedOut.set(ns, t);
    }
    return t;
  }

  private changed(): void {
    this.handedOut.clear();
    for (const listener of this.listeners) listener();
  }

  private split(key: string, ns: string): [string, string] {
    const m = NAMESPACED.exec(key);
    return m ? [m[1] as string, m[2] as string] : [ns, key];
  }

  private translate(key: string, options: TOptions, fixedLang: string | undefined, defaultNS: string): string {
    const lang = options.lng ?? fixedLang ?? this.language;
    const [ns, path] = this.split(key, defaultNS);
    const bundle = this.bundles.get(`${lang}|${ns}`);
    const { count } = options;
    const plural = typeof count === 'number' ? find(bundle, `${path}_${pluralRule(lang).select(count)}`) : undefined;
    let text = plural ?? find(bundle, path);
    if (text === undefined) {
      if (options.defaultValue !== undefined) text = options.defaultValue;
      else {
        console.error(`i18n: missing translation ${ns}:${path} (${lang})`);
        text = path;
      }
    }
    return interpolate(text, options);
  }
}
