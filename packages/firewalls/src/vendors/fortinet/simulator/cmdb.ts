// cmdb handlers of the simulated FortiOS REST API: the log.syslogd/setting singleton and CRUD on
// webfilter/urlfilter (mkey id) and webfilter/profile (mkey name), with `action=move` and the reference checks
// FortiOS makes (a profile's urlfilter-table must exist; a table a profile uses cannot be deleted).
import { envelope, failure, formatted, type Json, type Reply } from './envelope';
import type { FortiUrlFilterTable, FortiWebProfile, FortinetSimulatorState } from './state';

export interface CmdbRequest {
  method: string;
  url: URL;
  body: Json;
}

export function handleSyslogd(state: FortinetSimulatorState, req: CmdbRequest): Reply {
  const at = { path: 'log.syslogd', name: 'setting' };
  const { method, body } = req;
  if (method === 'GET')
    return { status: 200, body: envelope(method, at, { status: 'success', http_status: 200, results: state.syslogd }) };
  if (method !== 'PUT') return failure(method, at, { status: 405 });
  const allowedModes = ['udp', 'legacy-reliable', 'reliable'];
  if (body.mode !== undefined && !allowedModes.includes(String(body.mode)))
    return failure(method, at, { status: 500, error: -651, cliError: 'invalid mode' });
  const port = body.port === undefined ? 514 : Number(body.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    return failure(method, at, { status: 500, error: -651, cliError: 'invalid port' });
  state.syslogd = { ...state.syslogd, ...body };
  return { status: 200, body: envelope(method, at, { status: 'success', http_status: 200, mkey: 'setting' }) };
}

function tableMissing(state: FortinetSimulatorState, body: Json): boolean {
  const tableRef = (body.web as FortiWebProfile['web'])?.['urlfilter-table'];
  return tableRef !== undefined && tableRef !== 0 && !state.urlfilters.some((t) => t.id === tableRef);
}

function create(state: FortinetSimulatorState, input: { req: CmdbRequest; resource: 'urlfilter' | 'profile' }): Reply {
  const { method, body } = input.req;
  const at = { path: 'webfilter', name: input.resource };
  const ok = (mkey: unknown): Reply => ({
    status: 200,
    body: envelope(method, at, { status: 'success', http_status: 200, mkey }),
  });
  if (input.resource === 'urlfilter') {
    const id = body.id === undefined ? Math.max(0, ...state.urlfilters.map((t) => t.id)) + 1 : Number(body.id);
    if (state.urlfilters.some((t) => t.id === id))
      return failure(method, at, { status: 424, error: -5, cliError: 'duplicate entry' });
    if (typeof body.name !== 'string' || !body.name)
      return failure(method, at, { status: 424, error: -651, cliError: 'name is required' });
    state.urlfilters.push({ entries: [], ...body, id } as unknown as FortiUrlFilterTable);
    return ok(id);
  }
  if (typeof body.name !== 'string' || !body.name)
    return failure(method, at, { status: 424, error: -651, cliError: 'name is required' });
  if (state.profiles.some((p) => p.name === body.name))
    return failure(method, at, { status: 424, error: -5, cliError: 'duplicate entry' });
  if (tableMissing(state, body))
    return failure(method, at, { status: 424, error: -651, cliError: 'urlfilter-table does not exist' });
  state.profiles.push(body as FortiWebProfile);
  return ok(body.name);
}

export function handleWebfilter(
  state: FortinetSimulatorState,
  input: { req: CmdbRequest; resource: 'urlfilter' | 'profile'; key: string | undefined },
): Reply {
  const { req, resource, key } = input;
  const { method, body, url } = req;
  const collection = (resource === 'urlfilter' ? state.urlfilters : state.profiles) as Json[];
  const mkeyField = resource === 'urlfilter' ? 'id' : 'name';
  const find = (k: string) => collection.find((item) => String(item[mkeyField]) === k);
  const at = { path: 'webfilter', name: resource };
  const ok = (extra: Json): Reply => ({
    status: 200,
    body: envelope(method, at, { status: 'success', http_status: 200, ...extra }),
  });

  if (method === 'GET') {
    if (key === undefined)
      return ok({ results: collection, size: collection.length, matched_count: collection.length });
    const item = find(key);
    return item
      ? ok({ mkey: item[mkeyField], results: [formatted(item, url)] })
      : failure(method, at, { status: 404, error: -3 });
  }
  if (method === 'POST') return create(state, { req, resource });
  if (key === undefined) return failure(method, at, { status: 405 });
  const item = find(key);
  if (!item) return failure(method, at, { status: 404, error: -3 });
  if (method === 'PUT') {
    if (url.searchParams.get('action') === 'move') {
      const before = url.searchParams.get('before');
      const after = url.searchParams.get('after');
      const target = find(before ?? after ?? '');
      if (!target) return failure(method, at, { status: 404, error: -3 });
      collection.splice(collection.indexOf(item), 1);
      collection.splice(collection.indexOf(target) + (after ? 1 : 0), 0, item);
      return ok({ mkey: item[mkeyField] });
    }
    if (resource === 'profile' && tableMissing(state, body))
      return failure(method, at, { status: 424, error: -651, cliError: 'urlfilter-table does not exist' });
    // FortiOS PUT replaces the fields given; table children (entries, filters) are replaced as a whole
    Object.assign(item, body, { [mkeyField]: item[mkeyField] });
    return ok({ mkey: item[mkeyField] });
  }
  if (method === 'DELETE') {
    if (resource === 'urlfilter' && state.profiles.some((profile) => profile.web?.['urlfilter-table'] === item.id))
      return failure(method, at, { status: 424, error: -23, cliError: 'entry is used by a webfilter profile' });
    collection.splice(collection.indexOf(item), 1);
    return ok({ mkey: item[mkeyField] });
  }
  return failure(method, at, { status: 405 });
}
