// Each clinical list of both records side by side (stacked on a phone): an entry found on one record only (no entry
// of the same title on the other) is highlighted, with a visible mark and a screen-reader word. How an entry reads
// is the record's own view (features/record/kinds), handed in by the app as `describeRow`.
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import type { PairRecord } from '../../../../contracts/duplicates';
import { RECORD_KINDS, type RecordKind } from '../../../../contracts/kinds';

/** How an entry of a kind reads in the record's list: its title and detail lines. */
export type DescribeRow = (kind: RecordKind, row: unknown, t: TFunction) => { title: string; lines: string[] };

function RecordList({
  pairId,
  kind,
  record,
  n,
  otherTitles,
  describeRow,
}: {
  pairId: number;
  kind: RecordKind;
  record: PairRecord;
  n: number;
  otherTitles: ReadonlySet<string>;
  describeRow: DescribeRow;
}): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'record']);
  const rows = record[kind] as unknown[];
  const heading = `pair-${pairId}-${kind}-${n}`;
  return (
    <div className="min-w-0 rounded-md border border-slate-200 p-3">
      <h5 id={heading} className="mb-1 text-sm font-semibold text-slate-700">
        {t('duplicates.record', { n: String(n) })} · {t('duplicates.review.entries', { count: String(rows.length) })}
      </h5>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{t('duplicates.review.none')}</p>
      ) : (
        <ul aria-labelledby={heading} className="flex flex-col gap-1.5 text-sm">
          {rows.map((row, i) => {
            const view = describeRow(kind, row, t);
            const onlyHere = !otherTitles.has(view.title.trim().toLowerCase());
            return (
              <li key={i} className={onlyHere ? 'rounded border-l-4 border-yellow-500 bg-yellow-50 px-2 py-1' : 'px-2 py-1'}>
                <span className="font-medium break-words">{view.title}</span>
                {onlyHere ? (
                  <span className="ml-2 rounded bg-yellow-100 px-1.5 text-xs font-semibold text-yellow-900">
                    <span aria-hidden="true">+ </span>
                    {t('duplicates.review.onlyHere')}
                  </span>
                ) : null}
                {view.lines.length ? <span className="block break-words text-xs text-slate-600">{view.lines.join(' · ')}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export function PairLists({
  pairId,
  records,
  describeRow,
}: {
  pairId: number;
  records: readonly [PairRecord, PairRecord];
  describeRow: DescribeRow;
}): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'record']);
  const titles = (record: PairRecord, kind: RecordKind): Set<string> =>
    new Set((record[kind] as unknown[]).map((row) => describeRow(kind, row, t).title.trim().toLowerCase()));
  return (
    <section aria-labelledby={`pair-${pairId}-lists`} className="flex flex-col gap-3">
      <h3 id={`pair-${pairId}-lists`} className="font-semibold text-slate-900">
        {t('duplicates.review.lists')}
      </h3>
      {RECORD_KINDS.map((kind) => {
        if (records.every((r) => (r[kind] as unknown[]).length === 0)) return null;
        const [a, b] = records;
        return (
          <section key={kind} aria-labelledby={`pair-${pairId}-${kind}`} className="flex flex-col gap-2">
            <h4 id={`pair-${pairId}-${kind}`} className="text-sm font-semibold text-slate-900">
              {t(`record:sections.${kind}`)}
            </h4>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              <RecordList pairId={pairId} kind={kind} record={a} n={1} otherTitles={titles(b, kind)} describeRow={describeRow} />
              <RecordList pairId={pairId} kind={kind} record={b} n={2} otherTitles={titles(a, kind)} describeRow={describeRow} />
            </div>
          </section>
        );
      })}
    </section>
  );
}
