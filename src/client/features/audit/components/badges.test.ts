import { describe, expect, it } from 'vitest';
import { actionTone, prettyReportData, reportFileName, reportStatusTone } from './badges';

describe('audit screen rules (SPEC §2, §4)', () => {
  it('colours actions and report statuses', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'VIEW', 'SEARCH'].map(actionTone)).toEqual(['green', 'yellow', 'red', 'blue', 'purple']);
    expect(['COMPLETED', 'DRAFT', 'ARCHIVED', 'PENDING'].map(reportStatusTone)).toEqual(['green', 'yellow', 'gray', 'blue']);
  });
  it('names the download from the title and id', () => {
    expect(reportFileName('HIPAA report for Q3 2026', 12)).toBe('HIPAA_report_for_Q3_2026_12.json');
  });
  it('pretty-prints the report data', () => {
    expect(prettyReportData('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyReportData('not json')).toBe('not json');
  });
});
