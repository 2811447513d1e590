// The flags of one access, each with its reason in words.
import { useTranslation } from '../../../lib/use-translation';
import type { ReviewFlag } from '../../../../contracts/privacy-review';

export function FlagList({ flags }: { flags: ReviewFlag[] }): React.JSX.Element {
  const { t } = useTranslation('privacy');
  if (flags.length === 0) return <p className="text-sm text-slate-600">{t('noFlags')}</p>;
  return (
    <ul aria-label={t('flags')} className="flex flex-col gap-1">
      {flags.map((f) => (
        <li key={f.code} className="flex items-start gap-2 rounded-md bg-amber-50 px-2 py-1 text-sm text-amber-900">
          <span aria-hidden="true" className="mt-1.5 inline-block h-2 w-2 shrink-0 rounded-full bg-amber-500" />
          <span className="min-w-0 break-words">{t(`flag.${f.code}`, f.details)}</span>
        </li>
      ))}
    </ul>
  );
}
