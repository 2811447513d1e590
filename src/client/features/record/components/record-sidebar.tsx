// The record's left sidebar (SPEC §2): name and NC number, Back to Search, the View/Edit toggle (Edit only with
// records.write) and the sections. On a phone it sits above the section as a compact bar: the section list is
// collapsed behind a 'Record sections' button, so the critical alerts and the dashboard are in the first screen.
import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { ArrowLeft, ChevronDown } from 'lucide-react';
import type { RecordPatient } from '../../../../contracts/access';
import type { RecordKind } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { MainHeading } from '../../../components/ui/main-heading';
import { cn } from '../../../lib/cn';
import { VIEW_KINDS } from '../kinds';

/** The dashboard, the demographics, then one section per record kind (kinds/), in the record's order. */
export const RECORD_SECTIONS: readonly RecordSection[] = ['dashboard', 'demographics', ...VIEW_KINDS];
export type RecordSection = 'dashboard' | 'demographics' | RecordKind;
export type RecordMode = 'view' | 'edit';

export interface RecordSidebarProps {
  patient: Pick<RecordPatient, 'firstName' | 'lastName' | 'idNumber'> | undefined;
  onBack: () => void;
  canEdit: boolean;
  mode: RecordMode;
  onModeChange: (mode: RecordMode) => void;
  section: RecordSection;
  onSectionChange: (section: RecordSection) => void;
}

export function RecordSidebar({
  patient,
  onBack,
  canEdit,
  mode,
  onModeChange,
  section,
  onSectionChange,
}: RecordSidebarProps): React.JSX.Element {
  const { t } = useTranslation('record');
  // Phones only (below md): whether the section list is shown. From md up it always is.
  const [sectionsOpen, setSectionsOpen] = useState(false);
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <aside className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm md:sticky md:top-20 md:gap-4 md:self-start">
      <div>
        <MainHeading className="text-lg font-semibold text-slate-900">
          {patient ? `${patient.firstName} ${patient.lastName}` : '\u00a0'}
        </MainHeading>
        {patient ? <p className="text-sm text-slate-600">{t('ncNumber', { ncNumber: patient.idNumber })}</p> : null}
      </div>
      <div className="flex flex-wrap gap-2 md:flex-col md:gap-4">
        <Button variant="secondary" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          {t('backToSearch')}
        </Button>
        {canEdit ? (
          <div role="group" aria-label={t('mode.label')} className="grid grow grid-cols-2 gap-1 rounded-md bg-slate-100 p-1">
            {(['view', 'edit'] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={mode === m}
                onClick={() => onModeChange(m)}
                className={cn(
                  'rounded px-3 py-1.5 text-sm font-medium',
                  mode === m ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                {t(`mode.${m}`)}
              </button>
            ))}
          </div>
        ) : (
          <p className="self-center text-xs text-slate-600">{t('mode.readOnly')}</p>
        )}
      </div>
      <button
        ref={toggle}
        type="button"
        aria-expanded={sectionsOpen}
        aria-controls={listId}
        onClick={() => setSectionsOpen((o) => !o)}
        className="flex items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2 text-left text-sm md:hidden"
      >
        <span>
          <span className="block font-medium text-slate-900">{t('sections.label')}</span>
          <span className="block text-slate-600">{t(`sections.${section}`)}</span>
        </span>
        <ChevronDown aria-hidden="true" className={cn('h-4 w-4 shrink-0 transition-transform', sectionsOpen && 'rotate-180')} />
      </button>
      <nav id={listId} aria-label={t('sections.label')} className={cn(!sectionsOpen && 'hidden', 'md:block')}>
        <ul className="flex flex-col gap-1">
          {RECORD_SECTIONS.map((s) => (
            <li key={s}>
              <button
                type="button"
                aria-current={section === s ? 'page' : undefined}
                onClick={() => {
                  onSectionChange(s);
                  // On a phone the list closes under the focused button: focus goes back to the toggle (which names
                  // the new section), not to the page body.
                  if (sectionsOpen) toggle.current?.focus();
                  setSectionsOpen(false);
                }}
                className={cn(
                  'w-full rounded-md px-3 py-2 text-left text-sm',
                  section === s ? 'bg-brand-50 font-semibold text-brand-700' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {t(`sections.${s}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
