// What the offline area borrows from the record (issue 27, decision 061), handed in by app/ (features do not import
// each other): how an entry reads in a list (the record kinds' views) and a kind's add form (its fields and contract).
import type { TFunction } from 'i18next';
import type { RecordKind } from '../../../../contracts/kinds';
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

export interface OfflineKit {
  /** The kinds in the record's order. */
  kinds: readonly RecordKind[];
  describeRow: (kind: RecordKind, row: object, t: TFunction) => RowView;
  entryForm: (props: EntryFormProps) => React.ReactNode;
}
