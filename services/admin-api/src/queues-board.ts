// Bull Board (the BullMQ dashboard) at /admin/queues, for the operator only (docs/observability.md
// "Bull Board"): every request, the page, its static files and its JSON API alike, needs the admin token, and a
// request that changes something must come from the board's own page (docs/security.md "Bull Board and CSRF").
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { ApiError } from '@risk/common/errors';
import { jsonBodyReader, type RequestGuard } from '@risk/common/http';
import { makeQueue, QUEUES } from '@risk/common/queue';
import type { Express, RequestHandler } from 'express';
import type IORedis from 'ioredis';
import { bearerOf, isAdminToken } from './auth';
import { checkBoardRequestOrigin } from './queues-board-csrf';

export const QUEUES_BOARD_PATH = '/admin/queues';

/**
 * The admin token, as `Authorization: Bearer <token>` (scripts, curl) or as the password of HTTP Basic
 * (any user name), which is what a browser can send: the 401 asks for it with `WWW-Authenticate: Basic`
 * so opening the page prompts once and the browser repeats it for the page's own requests.
 */
export function adminTokenOf(header: string | undefined): string | null {
  const bearer = bearerOf(header);
  if (bearer) return bearer;
  const basic = header ? /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header) : null;
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

export interface QueuesBoard {
  /** mount with app.use(QUEUES_BOARD_PATH, ...handlers): the admin-token check, then the board */
  handlers: RequestHandler[];
}

/**
 * The board on the admin app's Redis connection. Failed authentications count against the per-IP
 * failed-auth limit like every other admin route (docs/security.md "Rate limits and caps").
 */
export function createQueuesBoard(opts: {
  redis: IORedis;
  prefix: string;
  adminToken: string | undefined;
  guard: RequestGuard;
}): QueuesBoard {
  // the Queue handles share the app's connection (BullMQ never closes a connection it was handed): the
  // app's own shutdown closes it, and nothing else of theirs outlives it
  const queues = Object.values(QUEUES).map((name) => makeQueue(name, opts.redis, opts.prefix));
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUES_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter });
  const board = serverAdapter.getRouter() as Express;
  board.disable('x-powered-by');

  const requireAdmin: RequestHandler = async (req, res, next) => {
    await opts.guard.authenticate(req, async () => {
      const token = adminTokenOf(req.headers.authorization);
      if (!token || !isAdminToken(token, opts.adminToken)) {
        res.setHeader('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"');
        throw new ApiError(token ? 'token_invalid' : 'token_missing', {
          message: 'The queue dashboard needs the admin token (Bearer, or as the Basic password).',
        });
      }
    });
    checkBoardRequestOrigin(req);
    next();
  };
  // the board parses JSON bodies itself (job data it adds or updates) and recurses on them: read them first, with the
  // board's own 100 kB limit, and refuse any nested deeper than every other body may be (docs/security.md "JSON
  // nesting depth"); the board's parser then finds the body read
  const readJson = jsonBodyReader(100 * 1024);
  const boundedBody: RequestHandler = (req, res, next) => readJson(req, res).then(() => next(), next);
  return {
    handlers: [requireAdmin, boundedBody, board],
  };
}
