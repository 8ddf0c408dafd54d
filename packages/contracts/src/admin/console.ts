// Console sessions (docs/console.md "Sign-in and access"): the admin token or a tenant token exchanged once for
// an HttpOnly session cookie plus a CSRF token the console sends on every state-changing call.
import { z } from '../zod';
import { isoDate } from './shared';

export const ZConsoleSignInBody = z
  .strictObject({
    token: z
      .string()
      .min(1)
      .max(4096)
      .openapi({ description: 'the admin token or a tenant token; exchanged, never stored' }),
  })
  .openapi('ConsoleSignInBody');

export const ZConsoleSession = z
  .object({
    object: z.literal('console_session'),
    id: z.string(),
    kind: z.enum(['admin', 'tenant']),
    tenant: z
      .object({ id: z.string(), name: z.string(), org_id: z.string() })
      .nullable()
      .openapi({ description: 'the signed-in tenant; null for the platform admin' }),
    csrf_token: z
      .string()
      .openapi({ description: 'send as X-Console-CSRF on every POST, PUT, PATCH and DELETE under /console/v1' }),
    scopes: z
      .array(z.string())
      .openapi({ description: "the public-API scopes of the session's own key (tenant sessions; [] for the admin)" }),
    created: isoDate,
    expires_at: isoDate.openapi({ description: 'absolute end of the session (8 h after sign-in)' }),
    idle_expires_at: isoDate.openapi({ description: 'the session ends here unless used before (30 min idle)' }),
  })
  .openapi('ConsoleSession');
export type ConsoleSessionBody = z.infer<typeof ZConsoleSession>;
