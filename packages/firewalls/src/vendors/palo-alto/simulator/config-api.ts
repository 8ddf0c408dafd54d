// `type=config` of the simulated PAN-OS XML API: get/show/set/edit/delete on the in-memory candidate tree, with
// PAN-OS's reply codes, and the reference check that refuses to delete an object a profile still uses.
import {
  clone,
  el,
  escapeXml,
  members,
  mergeInto,
  parseXml,
  parseXpath,
  path,
  resolveXpath,
  serialize,
  type XmlNode,
} from '../../../lib/xml-tree';
import { panPredefinedCategories } from '../pan-db';
import { illegalValue, missingParameter, response, type ApiReply } from './reply';
import { STRICTNESS, vsysOf, type PanosSimulatorState } from './state';

function getOrShow(
  state: PanosSimulatorState,
  action: string,
  steps: NonNullable<ReturnType<typeof parseXpath>>,
): ApiReply {
  const found = resolveXpath(action === 'get' ? state.candidate : state.running, steps);
  if (!found) return { http: 200, body: response('success', '7', '<result/>') };
  return {
    http: 200,
    body: response('success', '19', `<result total-count="1" count="1">${serialize(found.node)}</result>`),
  };
}

function setOrEdit(
  state: PanosSimulatorState,
  input: { action: string; steps: NonNullable<ReturnType<typeof parseXpath>>; elementXml: string | null },
): ApiReply {
  const { action, steps, elementXml } = input;
  if (!elementXml) return missingParameter('element');
  let elements: XmlNode[];
  try {
    elements = parseXml(elementXml);
  } catch {
    return { http: 200, body: response('error', '18', '<msg><line>Malformed Request</line></msg>') };
  }
  if (action === 'set') {
    const target = resolveXpath(state.candidate, steps, true)!;
    mergeInto(target.node, el(target.node.tag, elements));
  } else {
    const last = steps[steps.length - 1]!;
    const replacement = elements[0];
    if (
      !replacement ||
      elements.length !== 1 ||
      replacement.tag !== last.tag ||
      (last.name !== undefined && replacement.attrs.name !== last.name)
    ) {
      return {
        http: 200,
        body: response('error', '12', '<msg><line>edit: element does not match the xpath node</line></msg>'),
      };
    }
    const target = resolveXpath(state.candidate, steps, true)!;
    target.node.children = clone(replacement).children;
    target.node.text = replacement.text;
  }
  state.dirty = true;
  return { http: 200, body: response('success', '20', '<msg>command succeeded</msg>') };
}

function remove(state: PanosSimulatorState, steps: NonNullable<ReturnType<typeof parseXpath>>): ApiReply {
  const found = resolveXpath(state.candidate, steps);
  if (!found || !found.parent) return { http: 200, body: response('success', '7', "<msg>Object doesn't exist</msg>") };
  const name = found.node.attrs.name;
  // a custom URL category or an External Dynamic List a URL filtering profile lists cannot be deleted
  if ((found.parent.tag === 'custom-url-category' || found.parent.tag === 'external-list') && name) {
    const inUse = (path(vsysOf(state.candidate), 'profiles', 'url-filtering')?.children ?? []).find((profile) =>
      STRICTNESS.some((a) => members(path(profile, a)).includes(name)),
    );
    if (inUse) {
      return {
        http: 200,
        body: response(
          'error',
          '10',
          `<msg><line>${escapeXml(name)} cannot be deleted because of references from: url-filtering ${escapeXml(inUse.attrs.name ?? '')}</line></msg>`,
        ),
      };
    }
  }
  found.parent.children = found.parent.children.filter((c) => c !== found.node);
  state.dirty = true;
  return { http: 200, body: response('success', '20', '<msg>command succeeded</msg>') };
}

export function handleConfig(state: PanosSimulatorState, params: URLSearchParams): ApiReply {
  const action = params.get('action') ?? '';
  const xpath = params.get('xpath');
  if (!xpath) return missingParameter('xpath');
  if (xpath === '/config/predefined/pan-url-categories' && (action === 'get' || action === 'show')) {
    const entries = panPredefinedCategories.map((name) => `<entry name="${escapeXml(name)}"/>`).join('');
    return {
      http: 200,
      body: response('success', '19', `<result><pan-url-categories>${entries}</pan-url-categories></result>`),
    };
  }
  const steps = parseXpath(xpath);
  if (!steps || steps[0]?.tag !== 'config')
    return { http: 200, body: response('error', '6', '<msg><line>Bad XPath</line></msg>') };
  switch (action) {
    case 'get':
    case 'show':
      return getOrShow(state, action, steps);
    case 'set':
    case 'edit':
      return setOrEdit(state, { action, steps, elementXml: params.get('element') });
    case 'delete':
      return remove(state, steps);
    default:
      return illegalValue('action', action);
  }
}
