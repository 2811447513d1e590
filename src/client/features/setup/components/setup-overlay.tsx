import { useTranslation } from '../../../lib/use-translation';
import { SETUP_STEPS, type SetupProgress } from './setup-progress';

/** The progress overlay shown while the first administrator is created. */
export function SetupOverlay({ progress }: { progress: SetupProgress }): React.JSX.Element {
  const { t } = useTranslation('setup');
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/70 p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="setup-overlay-title"
    >
      <div className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
        <h2 id="setup-overlay-title" className="text-lg font-semibold">
          {t('overlay.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600" aria-live="polite">
          {t(`steps.${progress.step}`)}
        </p>
        <div
          role="progressbar"
          aria-label={t('overlay.title')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress.percent}
          className="mt-4 h-3 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-brand-600 transition-[width] duration-75" style={{ width: `${progress.percent}%` }} />
        </div>
        <p className="mt-2 text-right text-sm tabular-nums text-slate-700">{progress.percent}%</p>
        <ol className="mt-4 space-y-1 text-sm">
          {SETUP_STEPS.map((s, i) => (
            <li key={s} className={i <= SETUP_STEPS.indexOf(progress.step) ? 'text-slate-900' : 'text-slate-600'}>
              {t(`steps.${s}`)}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
