// Pieces every admin resource's contracts use.
import { z } from '../zod';

/** Admin API timestamps are ISO 8601 strings (the public API's are Unix seconds). */
export const isoDate = z.string().openapi({ format: 'date-time' });

export const ZDeleted = z.object({ id: z.string(), object: z.string(), deleted: z.literal(true) }).openapi('Deleted');
