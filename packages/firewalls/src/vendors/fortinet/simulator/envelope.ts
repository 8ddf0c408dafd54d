// FortiOS REST API v2 reply envelope (docs/firewalls.md "FortiOS"): every reply carries the device identity.
export type Json = Record<string, unknown>;

export const VERSION = 'v7.4.3';
export const BUILD = 2573;
export const SERIAL = 'FGVM02TM00SIM001';

export function envelope(method: string, input: { path: string; name: string }, extra: Json): Json {
  return {
    http_method: method,
    revision: '1',
    vdom: 'root',
    path: input.path,
    name: input.name,
    serial: SERIAL,
    version: VERSION,
    build: BUILD,
    ...extra,
  };
}

/**
 * A cmdb GET's `format` parameter: only the named properties of each result (`format=id|name`), as FortiOS answers
 * it; without it, the whole object.
 */
export function formatted(item: Json, url: URL): Json {
  const fields = url.searchParams.get('format')?.split('|').filter(Boolean);
  if (!fields?.length) return item;
  return Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]]));
}

/** What a handler answers: an HTTP status and the JSON body. */
export interface Reply {
  status: number;
  body: Json;
}

/** FortiOS's error envelope with its CLI error number (-5 duplicate, -3 not found, -23 in use, -651 invalid). */
export function failure(
  method: string,
  at: { path: string; name: string },
  detail: { status: number; error?: number; cliError?: string },
): Reply {
  return {
    status: detail.status,
    body: envelope(method, at, {
      status: 'error',
      http_status: detail.status,
      ...(detail.error !== undefined ? { error: detail.error } : {}),
      ...(detail.cliError ? { cli_error: detail.cliError } : {}),
    }),
  };
}
