// The clinical tabs of the portal (SPEC §2): read-only lists, newest first, dates en-GB, empty messages. What each
// kind shows is the record kinds' business (features/record/kinds, handed in by app/ as `PortalLists`): this file
// only renders it.
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import type { PortalRecord } from '../../../../contracts/portal';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { RecordItem, RecordList, type ItemField } from './record-item';

/** One entry as the portal shows it. */
export interface PortalEntryView {
  title: string;
  badge?: { text: string; tone: BadgeTone };
  fields: ItemField[];
  note?: string | null;
}

/** One list of the record: its kind (naming its tab portal:tabs.<kind> and empty text portal:empty.<kind>). */
export interface PortalListView {
  kind: string;
  /** Counted on the Overview (portal:overview.counts.<kind>). */
  counted: boolean;
  count: number;
  /** Its entries as shown: made only when its tab is (issue 21 item 18, a phone's first paint of the portal). */
  entries: (t: TFunction) => { id: number; view: PortalEntryView }[];
}

/** The patient's lists, in the record's order. */
export type PortalLists = (records: PortalRecord['medicalRecords']) => PortalListView[];

export function RecordTab({ list }: { list: PortalListView }): React.JSX.Element {
  const { t } = useTranslation('portal');
  return (
    <RecordList empty={t(`empty.${list.kind}`)} count={list.count}>
      {list.entries(t).map(({ id, view }) => (
        <RecordItem
          key={id}
          title={view.title}
          badge={view.badge ? <Badge tone={view.badge.tone}>{view.badge.text}</Badge> : undefined}
          fields={view.fields}
        >
          {view.note ? <p className="mt-2 break-words text-sm text-slate-700">{view.note}</p> : null}
        </RecordItem>
      ))}
    </RecordList>
  );
}
