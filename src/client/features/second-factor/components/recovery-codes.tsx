// The recovery codes, shown once after enrolment (decision 024).
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';

/** `forPasskey`: the codes came with a first passkey (issue 21 item 13), and the text says so. */
export function RecoveryCodes({
  codes,
  onDone,
  forPasskey = false,
}: {
  codes: string[];
  onDone: () => void;
  forPasskey?: boolean;
}): React.JSX.Element {
  const { t } = useTranslation('security');
  return (
    <section aria-labelledby="recovery-title" className="flex flex-col gap-3">
      <h3 id="recovery-title" className="font-semibold" tabIndex={-1} ref={(el) => el?.focus()}>
        {t('recovery.title')}
      </h3>
      <p className="text-sm text-slate-700">{forPasskey ? t('recovery.passkeyIntro') : t('recovery.intro')}</p>
      <ol
        aria-label={t('recovery.title')}
        className="grid grid-cols-2 gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm"
      >
        {codes.map((c) => (
          <li key={c} data-testid="recovery-code">
            {c}
          </li>
        ))}
      </ol>
      <div>
        <Button onClick={onDone}>{t('recovery.done')}</Button>
      </div>
    </section>
  );
}
