// What the offline area borrows from the record and the patients features (issue 27, decision 061), handed in by app/
// (features do not import each other): how an entry reads in a list (the record kinds' views), a kind's add form (its
// fields and contract) and the Add Patient form (its fields and contract).
import type { TFunction } from '../../../lib/translator';
import type { RecordKind } from '../../../../contracts/kinds';
import type { AddPatientInput } from '../../../../contracts/patients';
import type { BadgeTone } from '../../../components/ui/badge';

export interface RowView {
  title: string;
  badge?: { text: string; tone: BadgeTone; label?: string };
  lines: string[];
}

export interface EntryFormProps {
  kind: RecordKind;
  /** The body, valid by the kind's contract; the form clears when this resolves. */
  onValid: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}

export interface PatientFormProps {
  /** The body, valid by addPatientInput. */
  onValid: (body: AddPatientInput) => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
  cancelLabel: string;
  pending: boolean;
  pendingLabel: string;
  /** The id of the heading that names the form. */
  labelledBy: string;
  /** Shown above the fields (a refusal). */
  alert?: React.ReactNode;
}

export interface OfflineKit {
  /** The kinds in the record's order. */
  kinds: readonly RecordKind[];
  describeRow: (kind: RecordKind, row: object, t: TFunction) => RowView;
  entryForm: (props: EntryFormProps) => React.ReactNode;
  patientForm: (props: PatientFormProps) => React.ReactNode;
}
