// The console's session routes (docs/console.md "Sign-in and access"). The console's pages are static files
// (console/static-site.ts); its data comes through console/proxy.ts with the session's own credentials.
import { defineRoute } from '@risk/common/http';
import { EXAMPLE_CONSOLE_SESSION, z, ZConsoleSession, ZConsoleSignInBody } from '@risk/contracts';
import { noCredential } from '../http/route';
import { checkSameOrigin, consoleSession } from '../console/session-auth';
import { signInToConsole } from '../domain/console-sessions/sign-in';
import { endConsoleSession } from '../domain/console-sessions/sign-out';
import { serializeConsoleSession } from '../domain/console-sessions/serialize-session';
import { clearedCookie, sessionCookie } from '../domain/console-sessions/session-secrets';

const ZConsoleSignOut = z
  .object({ object: z.literal('console_sign_out'), id: z.string(), signed_out_at: z.string() })
  .openapi('ConsoleSignOut');

export const consoleRoutes = [
  defineRoute({
    method: 'post',
    path: '/console/v1/session',
    auth: noCredential,
    body: ZConsoleSignInBody,
    status: 201,
    doc: {
      summary: 'Sign in to the console (admin token or tenant token → session cookie)',
      description:
        'Exchanges the admin token or a tenant token for a console session: an HttpOnly, SameSite=Strict cookie (30 min idle, 8 h at most) and the CSRF token to send as X-Console-CSRF. A tenant session gets its own tenant token and org API key, revoked at sign-out; a sign-in counts against the admin rate limit and a tenant holds at most 10 open sessions, the oldest ending when another opens (docs/console.md).',
      response: { description: 'the session (Set-Cookie carries its secret)', schema: ZConsoleSession },
      examples: { request: { token: 'eyJhbGciOiJIUzI1NiJ9…' }, response: EXAMPLE_CONSOLE_SESSION },
      errors: [400, 401, 403],
    },
    async handler({ deps, req, res, body }) {
      checkSameOrigin(req);
      const { secret, row } = await signInToConsole(deps, {
        token: body.token,
        countSignIn: (caller) => deps.guard.limit(res, { policy: 'admin', caller }),
      });
      res.setHeader(
        'Set-Cookie',
        sessionCookie({ secret, secure: req.secure, maxAgeSeconds: (row.expires_at.getTime() - Date.now()) / 1000 }),
      );
      res.setHeader('Cache-Control', 'no-store');
      return serializeConsoleSession(row, { secret, secretsKey: deps.config.SECRETS_KEY ?? '' });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/console/v1/session',
    auth: consoleSession,
    doc: {
      summary: 'The current console session (and its CSRF token)',
      response: { description: 'the session', schema: ZConsoleSession },
      examples: { response: EXAMPLE_CONSOLE_SESSION },
    },
    handler({ deps, auth, res }) {
      res.setHeader('Cache-Control', 'no-store');
      return serializeConsoleSession(auth, { secret: auth.secret, secretsKey: deps.config.SECRETS_KEY ?? '' });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/console/v1/session',
    auth: consoleSession,
    doc: {
      summary: "Sign out: ends the session and revokes the session's own credentials",
      response: { description: 'signed out', schema: ZConsoleSignOut },
      examples: {
        response: {
          object: 'console_sign_out',
          id: EXAMPLE_CONSOLE_SESSION.id,
          signed_out_at: '2026-11-24T10:00:00.000Z',
        },
      },
    },
    async handler({ deps, auth, req, res }) {
      const out = await endConsoleSession(deps, { sessionId: auth.id });
      res.setHeader('Set-Cookie', clearedCookie(req.secure));
      return out;
    },
  }),
];
