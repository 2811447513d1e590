import type { SetupAdminInput, SetupAdminResult } from '../../../contracts/setup';
import { ROLE_IDS } from '../../../contracts/constants';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { hashPassword } from '../../security/password';
import { assertAcceptablePassword } from '../../security/password-policy';
import { countActiveAdmins, createFirstAdmin } from './setup.repository';

/** Setup is open while no active system administrator exists; registration stays closed until then. */
export async function needsSetup(db: Db): Promise<boolean> {
  return (await countActiveAdmins(db)) === 0;
}

const alreadyDone = (): AppError => new AppError('SETUP_ALREADY_DONE', 'Initial setup has already been completed');

export async function setupFirstAdmin(db: Db, input: SetupAdminInput, ipAddress: string): Promise<SetupAdminResult> {
  if (!(await needsSetup(db))) throw alreadyDone();
  assertAcceptablePassword(input.password, input); // issue 21 item 14, decision 033
  const passwordHash = await hashPassword(input.password);
  const created = await createFirstAdmin(
    db,
    {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email.toLowerCase(),
      passwordHash,
      facility: input.facility,
      department: input.department,
      roleId: ROLE_IDS.systemAdmin,
    },
    ipAddress,
  );
  if (created === 'done') throw alreadyDone();
  if (created === 'email-taken') throw new AppError('EMAIL_IN_USE', 'An account with this email already exists');
  return { message: 'Initial administrator account created successfully', userId: created.userId };
}
