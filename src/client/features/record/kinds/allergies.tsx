// Allergies on the client (SPEC §2-§5): the allergen from the substances and classes catalogue by type-ahead (free
// text allowed), Mild first; a severe allergy stands out; the dashboard's critical allergies and counter.
import { ALLERGY_SEVERITIES } from '../../../../contracts/kinds/allergies';
import { Badge } from '../../../components/ui/badge';
import { formatDate } from '../../../lib/dates';
import { day, portalBadge, recordBadge, type KindView, type StatusColours } from './kind-view';

/** The portal also shows the older high/medium/low severities. */
const colours: StatusColours = {
  tones: { severe: 'destructive', high: 'destructive', moderate: 'yellow', medium: 'yellow' },
  otherwise: 'neutral',
};

export const allergies: KindView<'allergies'> = {
  kind: 'allergies',
  fields: [
    { name: 'allergen', control: 'coded', required: true },
    { name: 'reaction', control: 'text', required: true },
    { name: 'severity', control: 'select', required: true, options: ALLERGY_SEVERITIES, labels: 'severity', half: true },
    { name: 'reportedDate', control: 'date', required: true, half: true },
  ],
  item: (a, t) => ({
    title: a.allergen,
    badge: recordBadge(t, 'severity', a.severity, colours),
    lines: [a.reaction, t('record:item.reported', { date: formatDate(a.reportedDate) })],
  }),
  portal: {
    counted: false,
    item: (a, t) => ({
      title: a.allergen,
      badge: portalBadge(t, a.severity, colours),
      fields: [
        { label: t('portal:fields.reaction'), value: a.reaction },
        { label: t('portal:fields.reported'), value: day(a.reportedDate) },
      ],
    }),
  },
  dashboard: {
    part: ({ heading, rows }, t) => (
      <div>
        <h3 className="font-semibold text-danger-600">{t(`record:dashboard.${heading}`)}</h3>
        <ul className="mt-1 flex flex-wrap gap-2">
          {rows.map((a) => (
            <li key={a.id}>
              <Badge tone={a.severity === 'Severe' ? 'destructive' : 'red'}>{a.allergen}</Badge>
            </li>
          ))}
        </ul>
      </div>
    ),
  },
};
