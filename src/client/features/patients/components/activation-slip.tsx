// The portal activation slip (decision 016): the code a desk hands to the patient, printable, in the language the
// patient reads (chosen on the slip, whatever the page's language), with the portal's activation address.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { TFunction } from '../../../lib/translator';
import { format } from 'date-fns';
import type { PortalActivation } from '../../../../contracts/portal';
import { Button } from '../../../components/ui/button';
import { NativeSelect } from '../../../components/ui/native-select';
import { LANGUAGES, translatorFor, type LanguageCode } from '../../../lib/i18n';

export interface SlipPatient {
  firstName: string;
  lastName: string;
  idNumber: string;
}

const pageLanguage = (code: string | undefined): LanguageCode => LANGUAGES.find((l) => l.code === code)?.code ?? 'en';

export function ActivationSlip({ patient, activation }: { patient: SlipPatient; activation: PortalActivation }): React.JSX.Element {
  const { t, i18n } = useTranslation('patients');
  const [lang, setLang] = useState<LanguageCode>(pageLanguage(i18n.language));
  const [slipT, setSlipT] = useState<{ lang: LanguageCode; t: TFunction } | null>(null);
  const titleId = useId();
  useEffect(() => {
    let live = true;
    translatorFor(lang, 'patients').then(
      (fixed) => live && setSlipT({ lang, t: fixed }),
      () => live && setSlipT(null),
    );
    return () => {
      live = false;
    };
  }, [lang]);
  // Until the chosen language has loaded, the slip reads in the page's language.
  const s = slipT?.lang === lang ? slipT.t : t;
  const address = `${window.location.origin}/patient-activate`;

  return (
    <section
      aria-labelledby={titleId}
      className="print-slip flex flex-col gap-3 rounded-lg border-2 border-dashed border-slate-400 bg-white p-4 text-slate-900"
    >
      <p className="no-print rounded-md bg-yellow-50 p-2 text-sm text-yellow-900">{t('slip.shownOnce')}</p>
      {activation.needsCurrentPin ? (
        <p className="no-print rounded-md bg-amber-50 p-2 text-sm text-amber-900">{t('slip.needsCurrentPinStaff')}</p>
      ) : null}
      <div className="no-print flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('slip.languageLabel')}
          <NativeSelect
            value={lang}
            onChange={(e) => setLang(e.target.value as LanguageCode)}
            options={LANGUAGES.map((l) => ({ value: l.code, label: l.nativeName }))}
            className="w-44"
          />
        </label>
        <Button variant="secondary" onClick={() => window.print()}>
          {t('slip.print')}
        </Button>
      </div>
      <div lang={slipT?.lang === lang ? lang : undefined} className="flex flex-col gap-2">
        <h3 id={titleId} className="text-lg font-semibold">
          {s('slip.title')}
        </h3>
        <p className="text-sm">{s('slip.intro')}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-medium">{s('slip.patient')}</dt>
          <dd>
            {patient.firstName} {patient.lastName}
          </dd>
          <dt className="font-medium">{s('slip.ncNumber')}</dt>
          <dd className="font-mono">{patient.idNumber}</dd>
          <dt className="font-medium">{s('slip.code')}</dt>
          <dd className="whitespace-nowrap font-mono text-xl font-bold tracking-wider sm:text-2xl" data-testid="activation-code">
            {activation.code}
          </dd>
          <dt className="font-medium">{s('slip.expires')}</dt>
          <dd>{format(new Date(activation.expiresAt), 'dd/MM/yyyy HH:mm')}</dd>
          <dt className="font-medium">{s('slip.address')}</dt>
          <dd className="break-all font-mono">{address}</dd>
        </dl>
        <ol className="list-decimal pl-5 text-sm">
          <li>{s('slip.step1')}</li>
          <li>{s('slip.step2')}</li>
          <li>{s('slip.step3')}</li>
        </ol>
        {activation.needsCurrentPin ? <p className="text-sm">{s('slip.needsCurrentPin')}</p> : null}
        <p className="text-sm font-medium">{s('slip.keepSafe')}</p>
      </div>
    </section>
  );
}
