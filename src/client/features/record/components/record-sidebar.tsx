// The record's left sidebar (SPEC §2): name and NC number, Back to Search, the View/Edit toggle (Edit only with
// records.write) and the sections.
import { useTranslation } from 'react-i18next';
import { ArrowLeft } from 'lucide-react';
import type { RecordPatient } from '../../../../contracts/access';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

export const RECORD_SECTIONS = ['dashboard', 'demographics', 'diagnoses', 'appointments', 'allergies', 'medications', 'vaccines', 'vitals'] as const;
export type RecordSection = (typeof RECORD_SECTIONS)[number];
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

export function RecordSidebar({ patient, onBack, canEdit, mode, onModeChange, section, onSectionChange }: RecordSidebarProps): React.JSX.Element {
  const { t } = useTranslation('record');
  return (
    <aside className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm md:sticky md:top-4 md:self-start">
      <div>
        <p className="text-lg font-semibold text-slate-900">{patient ? `${patient.firstName} ${patient.lastName}` : '\u00a0'}</p>
        {patient ? <p className="text-sm text-slate-600">{t('ncNumber', { ncNumber: patient.idNumber })}</p> : null}
      </div>
      <Button variant="secondary" onClick={onBack}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t('backToSearch')}
      </Button>
      {canEdit ? (
        <div role="group" aria-label={t('mode.label')} className="grid grid-cols-2 gap-1 rounded-md bg-slate-100 p-1">
          {(['view', 'edit'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => onModeChange(m)}
              className={cn('rounded px-3 py-1.5 text-sm font-medium', mode === m ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900')}
            >
              {t(`mode.${m}`)}
            </button>
          ))}
        </div>
      ) : (
        <p className="text-xs text-slate-500">{t('mode.readOnly')}</p>
      )}
      <nav aria-label={t('sections.label')}>
        <ul className="flex flex-col gap-1">
          {RECORD_SECTIONS.map((s) => (
            <li key={s}>
              <button
                type="button"
                aria-current={section === s ? 'page' : undefined}
                onClick={() => onSectionChange(s)}
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
