// The privacy review's flags (docs/decisions/018-privacy-review.md), decided from the figures the repository reads
// out of the audit data, each with the figures that explain it.
import type { ReviewFlag } from '../../../contracts/privacy-review';
import type { PrivacyThresholds } from '../../config';
import type { BreakGlassRow } from './privacy.repository';
import { addressRegion, facilityRegion } from './regions';

export function flagsOf(row: BreakGlassRow, limits: PrivacyThresholds): ReviewFlag[] {
  const flags: ReviewFlag[] = [];
  if (row.grantsInHour > limits.grantsPerHour) {
    flags.push({ code: 'GRANT_RATE', details: { count: row.grantsInHour, threshold: limits.grantsPerHour } });
  }
  if (row.sameSurname) flags.push({ code: 'SAME_SURNAME', details: {} });
  if (row.sameAddress) flags.push({ code: 'SAME_ADDRESS', details: {} });
  const userRegion = facilityRegion(row.facility ?? row.userFacility);
  const patientRegion = addressRegion(row.patientAddress);
  if (userRegion && patientRegion && userRegion !== patientRegion) {
    flags.push({ code: 'OUT_OF_REGION', details: { userRegion, patientRegion } });
  }
  if (row.restricted) flags.push({ code: 'RESTRICTED_RECORD', details: {} });
  if (row.newIp && row.sessionSearches > limits.newIpSearches) {
    flags.push({
      code: 'NEW_IP_SEARCHES',
      details: { ip: row.sessionIp ?? '', count: row.sessionSearches, threshold: limits.newIpSearches },
    });
  }
  if (row.bulkPatients > limits.bulkSearchPatients) {
    flags.push({
      code: 'BULK_SEARCH',
      details: { count: row.bulkPatients, threshold: limits.bulkSearchPatients, minutes: limits.bulkSearchMinutes },
    });
  }
  return flags;
}
