// Admin error helpers on top of @risk/common's error table.
import { ApiError } from '@risk/common/errors';

export const notFound = (what: string, id: string, param?: string) =>
  new ApiError('resource_missing', { message: `No such ${what}: '${id}'.`, param });
