// The medicine-check overrides in the privacy review (issue 25 item 4; decision 045), rendered against the real server:
// an auditor sees the override a doctor made (who, patient, medicine, finding, reason, knowledge version), in Afrikaans.
import '../../../test/dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '../../../lib/i18n';
import { ROLE_IDS } from '../../../../contracts/constants';
import { amoxicillinOverride } from '../../../../server/test/medicine-override-fixture';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { MedicineOverrides } from './medicine-overrides';

const server = realServer((t) => signInAs(t, ROLE_IDS.auditor).then((s) => s.cookie));
const reason = 'Toets negatief in 2025';

beforeAll(async () => {
  await amoxicillinOverride(server.t, reason);
});

describe('an auditor', () => {
  it('sees the override in the privacy review, in Afrikaans', async () => {
    await switchLanguage('af');
    renderWithApp(<MedicineOverrides />);
    const section = await screen.findByRole('region', { name: i18n.t('privacy:overrides.title') });
    await screen.findByText(i18n.t('record:warnings.MEDICINE_ALLERGY_CONTRAINDICATED', { substance: 'Amoxicillin', other: 'Penicillin' }));
    expect(section.textContent).toContain(i18n.t('record:medicineChecks.tier.contraindicated'));
    expect(section.textContent).toContain('Ndapewa Shikongo');
    expect(section.textContent).toContain(reason);
    expect(section.textContent).toMatch(/2026-11-26\.2\+[0-9a-f]{8} · atc-hierarchy/);
  });
});
