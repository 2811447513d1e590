// One entry of a portal list: a title, a badge, and label/value pairs; comfortable on a 360 px screen.
import type { ReactNode } from 'react';

export interface ItemField {
  label: string;
  value: string | null | undefined;
}

export function RecordItem({
  title,
  badge,
  fields,
  children,
}: {
  title: string;
  badge?: ReactNode;
  fields: ItemField[];
  children?: ReactNode;
}): React.JSX.Element {
  const shown = fields.filter((f) => f.value);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 break-words font-semibold text-slate-900">{title}</h3>
        {badge ? <div className="shrink-0">{badge}</div> : null}
      </div>
      {shown.length ? (
        <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
          {shown.map((f) => (
            <div key={f.label} className="flex min-w-0 gap-1.5">
              <dt className="shrink-0 text-slate-500">{f.label}:</dt>
              <dd className="min-w-0 break-words text-slate-800">{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {children}
    </li>
  );
}

/** A list, or its empty message ('Nothing on record'). */
export function RecordList({ empty, children, count }: { empty: string; count: number; children: ReactNode }): React.JSX.Element {
  if (count === 0) return <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600">{empty}</p>;
  return <ul className="flex flex-col gap-3">{children}</ul>;
}
