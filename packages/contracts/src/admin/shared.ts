// Pieces every admin resource's contracts use.
import { z } from '../zod';

/** Admin API timestamps are ISO 8601 strings (the public API's are Unix seconds). */
export const isoDate = z.string().openapi({ format: 'date-time' });

export const ZDeleted = z.object({ id: z.string(), object: z.string(), deleted: z.literal(true) }).openapi('Deleted');

/** An id in an admin path (`/tenants/v1/{id}`, `{token_id}`, `{ruleId}`, `{fwId}`). */
export const zPathId = z.string().min(1).max(255);
