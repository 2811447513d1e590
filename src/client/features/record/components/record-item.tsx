// How one entry of a list reads (SPEC §2): the kind's own view (kinds/: a title, a badge, detail lines), and for a
// kind whose entries can be coded, the code after the title (its system named for screen readers) or a subtle
// "uncoded" for free text.
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import { SYSTEM_SHORT_NAMES } from '../../../../contracts/code-systems';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import { Badge } from '../../../components/ui/badge';
import { codedField, kindView, type ItemView } from '../kinds';

/** An entry's code, null when it is free text; absent for a kind without codes. */
export interface EntryCode {
  code: string;
  codeSystem: string;
}

export interface EntryView extends ItemView {
  code?: EntryCode | null;
}

export function itemView<K extends RecordKind>(kind: K, row: RecordRows[K], t: TFunction): EntryView {
  const view = kindView(kind).item(row, t);
  if (!codedField(kind)) return view;
  const { code, codeSystem } = row as { code?: string | null; codeSystem?: string | null };
  return { ...view, code: code && codeSystem ? { code, codeSystem } : null };
}

/** The short name of a code system (ICD-10, ATC...), translated; the URI itself when unknown. */
function systemName(uri: string, t: TFunction): string {
  const key = Object.entries(SYSTEM_SHORT_NAMES).find(([, v]) => v === uri)?.[0];
  return key ? t(`record:coded.systems.${key}`) : uri;
}

function CodeMark({ code }: { code: EntryCode | null }): React.JSX.Element {
  const { t } = useTranslation('record');
  if (code === null) return <span className="text-xs italic text-slate-500">{t('coded.uncoded')}</span>;
  return (
    <span className="font-mono text-xs text-slate-500">
      <span className="sr-only">{t('coded.codeIn', { system: systemName(code.codeSystem, t) })} </span>
      {code.code}
    </span>
  );
}

export function ItemBody({ view }: { view: EntryView }): React.JSX.Element {
  return (
    <div className="min-w-0 flex-1">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <p className="break-words font-semibold text-slate-900">{view.title}</p>
        {view.code !== undefined ? <CodeMark code={view.code} /> : null}
        {view.badge ? (
          <Badge tone={view.badge.tone} title={view.badge.label}>
            {view.badge.label ? (
              <>
                <span aria-hidden="true">{view.badge.text}</span>
                <span className="sr-only">{view.badge.label}</span>
              </>
            ) : (
              view.badge.text
            )}
          </Badge>
        ) : null}
      </div>
      {view.lines.map((line, i) => (
        <p key={i} className="break-words text-sm text-slate-600">
          {line}
        </p>
      ))}
    </div>
  );
}
