// CSRF on Bull Board (docs/security.md "Bull Board and CSRF"): the board takes the admin token as a Basic password,
// which a browser caches and repeats on any request to the board, a cross-site form's POST included.
import { ApiError } from '@risk/common/errors';
import type { Request } from 'express';
import { checkSameOrigin } from './console/session-auth';

/** what a script (curl) sends on a state-changing board request instead of a browser's Origin */
export const BOARD_CSRF_HEADER = 'x-queues-board-csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * A browser repeats cached Basic credentials on any request to the board, a cross-site form's empty POST
 * included. So a state-changing request needs proof that the board's own page or a script sent it: a same-origin
 * Origin or `Sec-Fetch-Site: same-origin` (the board's page sends these), or the BOARD_CSRF_HEADER, which a
 * cross-site page cannot set without a CORS preflight that admin-api never grants. A foreign Origin or a cross-site
 * Sec-Fetch-Site is refused whatever else the request carries.
 */
export function checkBoardRequestOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  // refuses a foreign Origin or a cross-site Sec-Fetch-Site: an Origin still present is the board's own
  checkSameOrigin(req);
  const sameOrigin = req.headers.origin !== undefined || req.headers['sec-fetch-site'] === 'same-origin';
  if (!sameOrigin && !req.headers[BOARD_CSRF_HEADER])
    throw new ApiError('csrf_check_failed', {
      message: `A state-changing queue-board request must come from the board's page or carry ${BOARD_CSRF_HEADER}.`,
    });
}
