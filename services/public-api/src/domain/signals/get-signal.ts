import { ApiError } from '@risk/common/errors';
import { type ApiKeyPrincipal } from '@risk/common/http';
import type { Signal } from '@risk/contracts';
import { readSignalFor } from '@risk/db';
import type { AppDeps } from '../../deps';
import { renderSignal } from './render-signal';

/** A signal is readable only by its org (and mode); anyone else gets the same 404 as a missing id. */
export async function getSignal(
  deps: Pick<AppDeps, 'prisma'>,
  input: { auth: ApiKeyPrincipal; signalId: string },
): Promise<Signal> {
  const row = await readSignalFor(deps.prisma, {
    id: input.signalId,
    orgId: input.auth.org_id,
    livemode: input.auth.livemode,
  });
  if (!row)
    throw new ApiError('resource_missing', { param: 'signal_id', message: `No such signal: '${input.signalId}'.` });
  return renderSignal(row);
}
