// `cmdb/system/external-resource` of the simulated FortiOS (docs/feeds.md "Simulators"): external threat feeds
// (type category: a remote category with an id in 192–221; type domain) with a resource URL, optional Basic
// credentials and a refresh rate. A created or changed feed is pulled at once, as FortiOS does, then on the
// simulator's interval; one a web filter profile's category filter uses cannot be deleted (-23).
import type { FeedSource } from '../../../simulators/feed-puller';
import { envelope, failure, formatted, type Reply } from './envelope';
import type { CmdbRequest } from './cmdb';
import type { FortiExternalResource, FortinetSimulatorState } from './state';

const TYPES = new Set(['category', 'domain', 'address', 'malware', 'url']);

function invalid(resource: Partial<FortiExternalResource>): string | null {
  if (typeof resource.name !== 'string' || !resource.name || resource.name.length > 35) return 'invalid name';
  if (!resource.type || !TYPES.has(resource.type)) return 'invalid type';
  if (typeof resource.resource !== 'string' || !/^https?:\/\//.test(resource.resource)) return 'invalid resource URL';
  if (resource.type === 'category') {
    const c = Number(resource.category);
    if (!Number.isInteger(c) || c < 192 || c > 221) return 'category must be 192-221';
  }
  return null;
}

function configureFeeds(state: FortinetSimulatorState): Promise<void> {
  const sources = new Map<string, FeedSource>();
  for (const r of state.externalResources) {
    if (r.status === 'disable') continue;
    sources.set(r.name, {
      url: r.resource,
      ...(r.username ? { username: r.username, password: r.password ?? '' } : {}),
    });
  }
  state.feeds.configure(sources);
  return state.feeds.refresh();
}

export async function handleExternalResource(
  state: FortinetSimulatorState,
  input: { req: CmdbRequest; key: string | undefined },
): Promise<Reply> {
  const { method, body } = input.req;
  const at = { path: 'system', name: 'external-resource' };
  const ok = (extra: Record<string, unknown>): Reply => ({
    status: 200,
    body: envelope(method, at, { status: 'success', http_status: 200, ...extra }),
  });
  // the password is write-only on FortiOS: reads show it masked
  const shown = (r: FortiExternalResource) => ({ ...r, ...(r.password ? { password: 'ENC XXXX' } : {}) });
  const item = input.key === undefined ? undefined : state.externalResources.find((r) => r.name === input.key);
  if (method === 'GET') {
    if (input.key === undefined)
      return ok({ results: state.externalResources.map(shown), size: state.externalResources.length });
    return item
      ? ok({ mkey: item.name, results: [formatted(shown(item), input.req.url)] })
      : failure(method, at, { status: 404, error: -3 });
  }
  if (method === 'POST') {
    const problem = invalid(body as Partial<FortiExternalResource>);
    if (problem) return failure(method, at, { status: 424, error: -651, cliError: problem });
    if (state.externalResources.some((r) => r.name === body.name))
      return failure(method, at, { status: 424, error: -5, cliError: 'duplicate entry' });
    state.externalResources.push({ status: 'enable', 'refresh-rate': 5, ...(body as FortiExternalResource) });
    await configureFeeds(state);
    return ok({ mkey: body.name });
  }
  if (!item) return failure(method, at, { status: input.key === undefined ? 405 : 404, error: -3 });
  if (method === 'PUT') {
    const next = { ...item, ...body, name: item.name } as FortiExternalResource;
    const problem = invalid(next);
    if (problem) return failure(method, at, { status: 424, error: -651, cliError: problem });
    Object.assign(item, next);
    await configureFeeds(state);
    return ok({ mkey: item.name });
  }
  if (method === 'DELETE') {
    const inUse = state.profiles.some((p) => p['ftgd-wf']?.filters?.some((f) => f.category === item.category));
    if (item.type === 'category' && inUse)
      return failure(method, at, { status: 424, error: -23, cliError: 'entry is used by a webfilter profile' });
    state.externalResources.splice(state.externalResources.indexOf(item), 1);
    await configureFeeds(state);
    return ok({ mkey: item.name });
  }
  return failure(method, at, { status: 405 });
}
