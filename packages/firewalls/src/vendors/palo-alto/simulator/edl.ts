// External Dynamic Lists on the simulated PAN-OS device (docs/feeds.md "Simulators"): the `external-list`
// entries of the running config (type URL List: source URL, optional Basic credentials, recurring interval)
// become the lists the device pulls — after each commit, every interval, and on demand with
// `request system external-list refresh type url name <name>`.
import { path, type XmlNode } from '../../../lib/xml-tree';
import type { FeedSource } from '../../../simulators/feed-puller';
import { response, type ApiReply } from './reply';
import { vsysOf, type PanosSimulatorState } from './state';

/** `external-list` entries of type url in a config → name → source. */
export function edlSourcesOf(config: XmlNode): Map<string, FeedSource> {
  const sources = new Map<string, FeedSource>();
  for (const entry of path(vsysOf(config), 'external-list')?.children ?? []) {
    const url = path(entry, 'type', 'url');
    const source = path(url, 'url')?.text;
    if (!entry.attrs.name || !source) continue;
    const username = path(url, 'auth', 'username')?.text;
    const password = path(url, 'auth', 'password')?.text;
    sources.set(entry.attrs.name, { url: source, ...(username ? { username, password: password ?? '' } : {}) });
  }
  return sources;
}

/** After a commit: the running config's lists are the ones pulled; new ones are pulled at once. */
export async function syncEdls(state: PanosSimulatorState): Promise<void> {
  state.edls.configure(edlSourcesOf(state.running));
  await state.edls.refresh();
}

/** `<request><system><external-list><refresh><type><url><name>X</name></url></type></refresh>…` */
export async function handleEdlRefresh(state: PanosSimulatorState, root: XmlNode): Promise<ApiReply> {
  const name = path(root, 'system', 'external-list', 'refresh', 'type', 'url', 'name')?.text;
  if (!name || !state.edls.lists.has(name)) {
    return {
      http: 200,
      body: response('error', undefined, `<msg><line>external list ${name ?? ''} not found</line></msg>`),
    };
  }
  await state.edls.refresh(name);
  const list = state.edls.lists.get(name)!;
  if (list.lastError)
    return {
      http: 200,
      body: response(
        'error',
        undefined,
        `<msg><line>Unable to fetch external list. Using old copy for refresh.</line></msg>`,
      ),
    };
  return { http: 200, body: response('success', undefined, '<result>EDL refresh job enqueued</result>') };
}
