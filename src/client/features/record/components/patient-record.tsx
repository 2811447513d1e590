// The patient record screen (SPEC §2): sidebar, then the chosen section. One summary request loads everything
// ('Loading patient records...'); a refused open (no confirmed access, no permission) says why, with a way back; a
// record joined into another (decision 048) says so and offers to open that one.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordPatient } from '../../../../contracts/access';
import type { RecordKind } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { asApiError } from '../../../lib/api-error';
import { recordSummaryQueryOptions } from '../api/record-queries';
import { DemographicsSection } from './demographics-section';
import { RecordImmunizationStatus } from './immunization-status';
import { MedicalDashboard } from './medical-dashboard';
import { RecordListSection } from './record-list-section';
import { RecordSidebar, type RecordMode, type RecordSection } from './record-sidebar';

export interface PatientRecordProps {
  patientId: number;
  /** What the caller already knows (from search), shown while the record loads. */
  patient?: Pick<RecordPatient, 'firstName' | 'lastName' | 'idNumber'>;
  onBack: () => void;
  /** The user holds records.write: the Edit mode is offered. */
  canEdit: boolean;
  /** Opens another record: the one this record was joined into (decision 048). */
  onOpenPatient?: (patientId: number) => void;
}

/** A record joined into another (409 PATIENT_JOINED): that record's id, and its NC number when the server told it. */
function joinedInto(error: unknown): { survivorId: number; idNumber: string | null } | null {
  const apiError = asApiError(error);
  if (apiError?.code !== 'PATIENT_JOINED') return null;
  const { survivorId, survivorIdNumber } = apiError.details;
  if (typeof survivorId !== 'number') return null;
  return { survivorId, idNumber: typeof survivorIdNumber === 'string' ? survivorIdNumber : null };
}

function errorKey(error: unknown): string {
  const apiError = asApiError(error);
  if (apiError?.code === 'ACCESS_GRANT_REQUIRED') return 'errors.accessNotConfirmed';
  if (apiError?.status === 403) return 'errors.noPermission';
  if (apiError?.status === 404) return 'errors.notFound';
  return 'errors.loadFailed';
}

export function PatientRecord({ patientId, patient, onBack, canEdit, onOpenPatient }: PatientRecordProps): React.JSX.Element {
  const { t } = useTranslation('record');
  const summary = useQuery(recordSummaryQueryOptions(patientId));
  const [section, setSection] = useState<RecordSection>('dashboard');
  const [mode, setMode] = useState<RecordMode>('view');
  // SPEC §4: only one add dialog is open at a time.
  const [openDialog, setOpenDialog] = useState<RecordKind | null>(null);
  // The dashboard's "go to the vaccines" moves focus to the schedule's heading; the sidebar does not.
  const [focusSchedule, setFocusSchedule] = useState(false);
  const editing = canEdit && mode === 'edit';
  const shown = summary.data?.patient ?? patient;

  let main: React.JSX.Element;
  if (summary.isPending) {
    main = (
      <p role="status" className="p-4 text-slate-600">
        {t('loading')}
      </p>
    );
  } else if (summary.isError && joinedInto(summary.error)) {
    const joined = joinedInto(summary.error)!;
    main = (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-md bg-amber-50 p-4 text-amber-900">
        <p>{joined.idNumber ? t('joined.intoNumber', { nc: joined.idNumber }) : t('joined.intoOther')}</p>
        <div className="flex flex-wrap gap-2">
          {onOpenPatient ? <Button onClick={() => onOpenPatient(joined.survivorId)}>{t('joined.open')}</Button> : null}
          <Button variant="secondary" onClick={onBack}>
            {t('backToSearch')}
          </Button>
        </div>
      </div>
    );
  } else if (summary.isError) {
    main = (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-md bg-red-50 p-4 text-danger-600">
        <p>{t(errorKey(summary.error))}</p>
        <Button variant="secondary" onClick={onBack}>
          {t('backToSearch')}
        </Button>
      </div>
    );
  } else if (section === 'dashboard') {
    main = (
      <MedicalDashboard
        patient={summary.data.patient}
        patientId={patientId}
        onOpenVaccines={() => {
          setSection('vaccines');
          setOpenDialog(null);
          setFocusSchedule(true);
        }}
      />
    );
  } else if (section === 'demographics') {
    main = <DemographicsSection patient={summary.data.patient} />;
  } else {
    const list = (
      <RecordListSection
        key={section}
        kind={section}
        patientId={patientId}
        editing={editing}
        addOpen={openDialog === section}
        onAddOpenChange={(open) => setOpenDialog(open ? section : null)}
      />
    );
    // The vaccines section opens with the schedule's due and overdue doses (decision 044).
    main =
      section === 'vaccines' ? (
        <div className="flex flex-col gap-6">
          <RecordImmunizationStatus patientId={patientId} focusTitle={focusSchedule} />
          {list}
        </div>
      ) : (
        list
      );
  }

  return (
    <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
      <RecordSidebar
        patient={shown}
        onBack={onBack}
        canEdit={canEdit}
        mode={editing ? 'edit' : 'view'}
        onModeChange={(m) => {
          setMode(m);
          setOpenDialog(null);
        }}
        section={section}
        onSectionChange={(s) => {
          setSection(s);
          setOpenDialog(null);
          setFocusSchedule(false);
        }}
      />
      <div className="min-w-0">{main}</div>
    </div>
  );
}
