// The language selector of SPEC §1: the trigger shows the current language's native name; the list shows
// native and English names. A small disclosure (no menu library) keeps the sign-in page's JavaScript small.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../lib/use-translation';
import { Globe } from 'lucide-react';
import { changeLanguage, LANGUAGES } from '../lib/i18n';

export function LanguageSelector(): React.JSX.Element {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const current = LANGUAGES.find((l) => l.code === i18n.language) ?? LANGUAGES[0];

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent): void => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    root.current?.querySelector<HTMLButtonElement>('[aria-current="true"]')?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent): void => {
    const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('ul button') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      setOpen(false);
      trigger.current?.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = (index + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items[next]?.focus();
    }
  };

  return (
    <div ref={root} className="relative" onKeyDown={open ? onKeyDown : undefined}>
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t('language.choose', { language: current.nativeName })}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1.5 rounded-md bg-white/80 px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
      >
        <Globe aria-hidden="true" className="h-4 w-4" />
        {current.nativeName}
      </button>
      {open ? (
        <ul id={listId} className="absolute right-0 z-50 mt-1 min-w-48 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
          {LANGUAGES.map((l) => (
            <li key={l.code}>
              <button
                type="button"
                lang={l.code}
                aria-current={l.code === current.code}
                onClick={() => {
                  void changeLanguage(l.code);
                  setOpen(false);
                  trigger.current?.focus();
                }}
                className="flex w-full flex-col rounded px-3 py-2 text-left hover:bg-slate-100 focus:bg-slate-100 aria-[current=true]:font-semibold"
              >
                <span>{l.nativeName}</span>
                <span className="text-xs font-normal text-slate-600">{l.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
