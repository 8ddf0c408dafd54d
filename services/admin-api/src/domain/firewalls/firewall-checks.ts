// Checks shared by the firewall use cases that write a connection.
import { ApiError } from '@risk/common/errors';
import { hostRefusal, type AllowList } from '@risk/common/outbound';
import { Prisma } from '@risk/db';

export function assertHostAllowed(host: string, allowList: AllowList) {
  const refusal = hostRefusal(allowList, host, 'firewall');
  if (refusal) {
    throw new ApiError('url_not_allowed', {
      param: 'host',
      message: `host is not allowed: ${refusal}. Loopback, link-local and metadata addresses need OUTBOUND_ALLOWED_HOSTS_FIREWALL.`,
    });
  }
}

/** A unique-name violation is 409 resource_already_exists on `name`; anything else is rethrown. */
export function conflictOnName(err: unknown, name: string | undefined): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    throw new ApiError('resource_already_exists', {
      param: 'name',
      message: `A firewall named '${name}' already exists.`,
    });
  }
  throw err;
}
