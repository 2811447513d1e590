// My Profile (SPEC §2, §5): a read-only summary and a form locked until Edit Profile.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from '../../../lib/use-translation';
import type { CurrentUser } from '../../../../contracts/auth';
import { FACILITIES, PROFILE_DEPARTMENTS } from '../../../../contracts/constants';
import { profileUpdateInput, type ProfileUpdateInput } from '../../../../contracts/users';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { displayNameOf, initialsOf } from '../../../lib/user-display';
import { useUpdateProfile } from '../api/update-profile';
import { MainHeading } from '../../../components/ui/main-heading';

type ProfileForm = { [K in keyof ProfileUpdateInput]: string };

const toForm = (u: CurrentUser): ProfileForm => ({
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  phoneNumber: u.phoneNumber ?? '',
  department: u.department ?? '',
  facility: u.facility ?? '',
  address: u.address ?? '',
});

/** Options for a select, keeping a stored value that is not in the list. */
const withCurrent = (list: readonly string[], current: string | null): string[] =>
  current && !list.includes(current) ? [current, ...list] : [...list];

/** `security`: the sign-in security card (second factor), composed in app/. */
export function ProfileScreen({
  user,
  onClose,
  security,
}: {
  user: CurrentUser;
  onClose: () => void;
  security?: React.ReactNode;
}): React.JSX.Element {
  const { t } = useTranslation(['profile', 'common', 'validation']);
  const [editing, setEditing] = useState(false);
  const update = useUpdateProfile(user.id);
  const form = useForm<ProfileForm>({ resolver: zodResolver(profileUpdateInput) as never, defaultValues: toForm(user) });
  const { errors } = form.formState;
  const err = (name: keyof ProfileForm): string | undefined => {
    const m = errors[name]?.message;
    return m ? t(m) : undefined;
  };
  const roleName = user.role ? t(`common:roles.${user.role.name}`, { defaultValue: user.role.displayName }) : t('healthcareWorker');

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(profileUpdateInput.parse(values), {
      onSuccess: (saved) => {
        // A new name waits for an administrator (issue 21 item 10): say so instead of "updated".
        if (saved.pendingName) toast({ title: t('toast.namePendingTitle'), description: t('toast.namePendingDescription') });
        else toast({ title: t('toast.updatedTitle'), description: t('toast.updatedDescription') });
        form.reset(toForm(saved));
        setEditing(false);
        // The Save button is gone with edit mode: focus goes to the section that changed, not the page body.
        requestAnimationFrame(() => document.getElementById('personal-title')?.focus());
      },
      onError: (error) =>
        toast({ title: t('toast.failedTitle'), description: errorText(t, error, t('toast.failedFallback')), variant: 'destructive' }),
    }),
  );

  return (
    <section aria-labelledby="profile-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <MainHeading id="profile-title" className="text-xl font-semibold">
          {t('title')}
        </MainHeading>
        <Button variant="secondary" onClick={onClose}>
          {t('back')}
        </Button>
      </div>
      <Card>
        <CardContent className="flex flex-wrap items-center gap-4 pt-5">
          <Avatar initials={initialsOf(user)} imageUrl={user.profileImageUrl} />
          <div className="min-w-0">
            <p className="font-semibold">{displayNameOf(user)}</p>
            <p className="text-sm text-slate-600">{roleName}</p>
          </div>
          <dl className="grid w-full grid-cols-2 gap-2 text-sm sm:w-auto sm:grid-cols-4 sm:gap-6">
            <div>
              <dt className="text-slate-500">{t('employeeId')}</dt>
              <dd className="font-mono text-xs">{user.id.slice(0, 8).toUpperCase()}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('fields.department')}</dt>
              <dd>{user.department ? t(`common:departments.${user.department}`, { defaultValue: user.department }) : '-'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('fields.facility')}</dt>
              <dd>{user.facility ?? '-'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('role')}</dt>
              <dd>{roleName}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle id="personal-title" tabIndex={-1} className="focus:outline-none">
            {t('personalInformation')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
            <fieldset disabled={!editing} className="contents">
              <FormField label={t('fields.firstName')} error={err('firstName')} required>
                <Input {...form.register('firstName')} />
              </FormField>
              <FormField label={t('fields.lastName')} error={err('lastName')} required>
                <Input {...form.register('lastName')} />
              </FormField>
              <FormField label={t('fields.email')} error={err('email')} required>
                <Input type="email" {...form.register('email')} />
              </FormField>
              <FormField label={t('fields.phone')} error={err('phoneNumber')}>
                <Input type="tel" {...form.register('phoneNumber')} />
              </FormField>
              <FormField label={t('fields.department')} error={err('department')} required>
                <NativeSelect
                  placeholder=""
                  options={withCurrent(PROFILE_DEPARTMENTS, user.department).map((d) => ({
                    value: d,
                    label: t(`common:departments.${d}`, { defaultValue: d }),
                  }))}
                  {...form.register('department')}
                />
              </FormField>
              <FormField label={t('fields.facility')} error={err('facility')} required>
                <NativeSelect
                  placeholder=""
                  options={withCurrent(FACILITIES, user.facility).map((f) => ({ value: f, label: f }))}
                  {...form.register('facility')}
                />
              </FormField>
              <FormField label={t('fields.address')} hint={t('fields.addressHint')} error={err('address')}>
                <Input autoComplete="street-address" {...form.register('address')} />
              </FormField>
            </fieldset>
            <div className="flex gap-2 sm:col-span-2">
              {editing ? (
                <>
                  <Button type="submit" disabled={update.isPending}>
                    {update.isPending ? t('saving') : t('save')}
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => {
                      form.reset(toForm(user));
                      setEditing(false);
                    }}
                  >
                    {t('cancel')}
                  </Button>
                </>
              ) : (
                <Button
                  onClick={(e) => {
                    e.preventDefault(); // the button re-renders as Save Changes (a submit): do not let this click submit
                    setEditing(true);
                  }}
                >
                  {t('edit')}
                </Button>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
      {security}
    </section>
  );
}
