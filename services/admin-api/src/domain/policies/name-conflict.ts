// The answer to a taken policy name.
import { ApiError } from '@risk/common/errors';
import { Prisma } from '@risk/db';

/** A unique-name violation is 409 resource_already_exists on `name`; anything else is rethrown. */
export function nameConflict(err: unknown, name?: string): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    throw new ApiError('resource_already_exists', {
      param: 'name',
      message: `A policy named '${name}' already exists.`,
    });
  }
  throw err;
}
