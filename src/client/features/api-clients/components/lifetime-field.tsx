// How long a system client's token works (decision 030): 30, 90 or 365 days, 90 unless another is picked.
import { useTranslation } from '../../../lib/use-translation';
import { API_CLIENT_LIFETIMES, type ApiClientLifetime } from '../../../../contracts/api-clients';
import { FormField } from '../../../components/ui/form-field';
import { NativeSelect } from '../../../components/ui/native-select';

export function LifetimeField({
  value,
  onChange,
}: {
  value: ApiClientLifetime;
  onChange: (days: ApiClientLifetime) => void;
}): React.JSX.Element {
  const { t } = useTranslation('users');
  return (
    <FormField label={t('clients.lifetime')} hint={t('clients.lifetimeHint')}>
      <NativeSelect
        value={String(value)}
        onChange={(e) => onChange(Number(e.target.value) as ApiClientLifetime)}
        options={API_CLIENT_LIFETIMES.map((days) => ({ value: String(days), label: t('clients.lifetimeOption', { days }) }))}
      />
    </FormField>
  );
}
