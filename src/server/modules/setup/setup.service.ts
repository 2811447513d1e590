import type { SetupAdminInput, SetupAdminResult } from '../../../contracts/setup';
import { ROLE_IDS } from '../../../contracts/constants';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { hashPassword } from '../../security/password';
import { countUsers, createFirstAdmin } from './setup.repository';

export async function needsSetup(db: Db): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

const alreadyDone = (): AppError =>
  new AppError('SETUP_ALREADY_DONE', 403, 'Initial setup has already been completed');

export async function setupFirstAdmin(db: Db, input: SetupAdminInput, ipAddress: string): Promise<SetupAdminResult> {
  if (!(await needsSetup(db))) throw alreadyDone();
  const passwordHash = await hashPassword(input.password);
  const userId = await createFirstAdmin(
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
  if (!userId) throw alreadyDone();
  return { message: 'Initial administrator account created successfully', userId };
}
