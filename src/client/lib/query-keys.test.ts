import { describe, expect, it } from 'vitest';
import { auditKeys } from '../features/audit/api/audit';
import { privacyKeys } from '../features/privacy/api/privacy-reviews';
import { portalKeys } from '../features/portal/api/portal-record';
import { userKeys } from '../features/users/api/manage-users';
import { currentUserKey, toQueryString, underUrl, urlKey } from './query-keys';

const query = (url: string) => ({ queryKey: urlKey(url) });

describe('query keys', () => {
  it('key a GET by its URL, leaving empty filters out of the query string', () => {
    expect(toQueryString({ a: '1', b: '', c: null, d: undefined, e: 0 })).toBe('?a=1&e=0');
    expect(toQueryString({})).toBe('');
    expect(auditKeys.logs({ action: 'VIEW', userId: '' })).toEqual(['/api/audit-logs?action=VIEW&limit=100']);
    expect(auditKeys.reports({ reportType: 'all' }, 2)).toEqual(['/api/compliance-reports?reportType=all&page=2&pageSize=50']);
  });

  it('invalidate exactly what a feature cached', () => {
    expect(auditKeys.allReports(query('/api/compliance-reports?page=2'))).toBe(true);
    expect(auditKeys.allReports(query('/api/audit-logs'))).toBe(false);
    expect(privacyKeys.all(query(privacyKeys.detail(7)[0]))).toBe(true);
    expect(privacyKeys.all(query('/api/patients/7'))).toBe(false);
    expect(userKeys.afterDecision(query(userKeys.stats[0]))).toBe(true);
    expect(userKeys.afterDecision(query('/api/auth/user'))).toBe(false);
  });

  it('forget everything of the signed-in person on sign-in and sign-out, and nothing else', () => {
    expect(portalKeys.signedIn(query(portalKeys.record[0]))).toBe(true);
    expect(portalKeys.signedIn(query(portalKeys.accessLog(2, 10)[0]))).toBe(true);
    expect(portalKeys.signedIn({ queryKey: currentUserKey })).toBe(true);
    expect(portalKeys.signedIn(query('/api/setup/status'))).toBe(false);
    expect(underUrl('/a', '/b')(query('/c'))).toBe(false);
  });
});
