import type { BadgeTone } from '../../../components/ui/badge';

/** SPEC §4: CREATE green, UPDATE yellow, DELETE red, VIEW blue, SEARCH purple. */
export function actionTone(action: string): BadgeTone {
  const tones: Record<string, BadgeTone> = { CREATE: 'green', UPDATE: 'yellow', DELETE: 'red', VIEW: 'blue', SEARCH: 'purple' };
  return tones[action] ?? 'neutral';
}

/** SPEC §4: COMPLETED green, DRAFT yellow, ARCHIVED gray, anything else blue. */
export function reportStatusTone(status: string): BadgeTone {
  const tones: Record<string, BadgeTone> = { COMPLETED: 'green', DRAFT: 'yellow', ARCHIVED: 'gray' };
  return tones[status] ?? 'blue';
}

/** SPEC §2: the title with spaces replaced by underscores, plus the id. */
export const reportFileName = (title: string, id: number): string => `${title.replace(/ /g, '_')}_${id}.json`;

/** reportData (JSON text) pretty-printed; text that is not JSON is kept as it is. */
export function prettyReportData(reportData: string): string {
  try {
    return JSON.stringify(JSON.parse(reportData), null, 2);
  } catch {
    return reportData;
  }
}
