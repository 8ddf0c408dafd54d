import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * helmet()'s headers, computed once. With its default options helmet sets the same static headers on
 * every response (no nonces), but through a chain of a dozen middleware functions per request; this
 * runs helmet once against a recording response at startup and replays the result with one
 * middleware. Headers helmet removes (X-Powered-By) are removed the same way.
 */
export function precomputedHelmet(options?: Parameters<typeof helmet>[0]): RequestHandler {
  const set: Array<[string, string | number | readonly string[]]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
    getHeader: () => undefined,
  };
  let finished = false;
  helmet(options)(
    { headers: {}, method: 'GET', url: '/' } as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      if (err) throw err instanceof Error ? err : new Error(String(err));
      finished = true;
    },
  );
  if (!finished) throw new Error('helmet did not finish synchronously; cannot precompute its headers');
  return (_req, res, next) => {
    for (let i = 0; i < set.length; i++) res.setHeader(set[i]![0], set[i]![1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]!);
    next();
  };
}
