// A tiny XML tree for the PAN-OS simulator's in-memory config (candidate and running) and for the
// connector's reply parsing: parse with fast-xml-parser (order preserved), serialize, and walk PAN-style
// xpaths (`/config/.../entry[@name='x']/...`).
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text?: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function convert(items: Ordered[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const item of items) {
    const tag = Object.keys(item).find((k) => k !== ':@');
    if (!tag || tag === '#text' || tag.startsWith('?')) continue;
    const raw = (item[tag] as Ordered[]) ?? [];
    const textItem = raw.find((c) => '#text' in c);
    const node: XmlNode = { tag, attrs: { ...(item[':@'] ?? {}) }, children: convert(raw) };
    if (textItem && node.children.length === 0) node.text = String(textItem['#text']);
    nodes.push(node);
  }
  return nodes;
}

/** Parse an XML fragment (one or more elements). Throws on malformed XML. */
export function parseXml(xml: string): XmlNode[] {
  const valid = XMLValidator.validate(`<__root>${xml.replace(/^\s*<\?xml[^>]*\?>/, '')}</__root>`);
  if (valid !== true) throw new Error(`malformed XML: ${valid.err.msg}`);
  return convert(parser.parse(xml) as Ordered[]);
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function serialize(node: XmlNode): string {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  if (node.children.length) return `<${node.tag}${attrs}>${node.children.map(serialize).join('')}</${node.tag}>`;
  if (node.text !== undefined) return `<${node.tag}${attrs}>${escapeXml(node.text)}</${node.tag}>`;
  return `<${node.tag}${attrs}/>`;
}

export function el(tag: string, content?: string | XmlNode[], attrs: Record<string, string> = {}): XmlNode {
  if (typeof content === 'string') return { tag, attrs, children: [], text: content };
  return { tag, attrs, children: content ?? [] };
}

export function child(node: XmlNode | undefined, tag: string): XmlNode | undefined {
  return node?.children.find((c) => c.tag === tag);
}

export function path(node: XmlNode | undefined, ...tags: string[]): XmlNode | undefined {
  return tags.reduce<XmlNode | undefined>((current, tag) => child(current, tag), node);
}

export function textOf(node: XmlNode | undefined): string | undefined {
  return node?.text;
}

export function members(node: XmlNode | undefined): string[] {
  return (node?.children ?? []).filter((c) => c.tag === 'member').map((c) => c.text ?? '');
}

export interface XpathStep {
  tag: string;
  name?: string;
}

/** Split a PAN xpath into steps; null when it is not of the supported `/a/b/entry[@name='x']` form. */
export function parseXpath(xpath: string): XpathStep[] | null {
  if (!xpath.startsWith('/')) return null;
  const steps: XpathStep[] = [];
  const re = /\/([\w.-]+)(?:\[@name=(?:'([^']*)'|"([^"]*)")\])?/y;
  let match: RegExpExecArray | null;
  let index = 0;
  while (index < xpath.length) {
    re.lastIndex = index;
    match = re.exec(xpath);
    if (!match) return null;
    steps.push(
      match[2] !== undefined || match[3] !== undefined
        ? { tag: match[1]!, name: match[2] ?? match[3] }
        : { tag: match[1]! },
    );
    index = re.lastIndex;
  }
  return steps;
}

function matchesStep(node: XmlNode, step: XpathStep): boolean {
  return node.tag === step.tag && (step.name === undefined || node.attrs.name === step.name);
}

/** Find (or, with create, build) the node an xpath names below root (root is the `config` element). */
export function resolveXpath(
  root: XmlNode,
  steps: XpathStep[],
  create = false,
): { node: XmlNode; parent: XmlNode | null } | null {
  if (!steps.length || steps[0]!.tag !== root.tag) return null;
  let node = root;
  let parent: XmlNode | null = null;
  for (const step of steps.slice(1)) {
    let next = node.children.find((c) => matchesStep(c, step));
    if (!next) {
      if (!create) return null;
      next = { tag: step.tag, attrs: step.name !== undefined ? { name: step.name } : {}, children: [] };
      node.children.push(next);
    }
    parent = node;
    node = next;
  }
  return { node, parent };
}

/** PAN `set` semantics: merge children in, additive for members and named entries. */
export function mergeInto(target: XmlNode, source: XmlNode): void {
  if (source.text !== undefined && source.children.length === 0) {
    target.text = source.text;
    target.children = [];
    return;
  }
  for (const incoming of source.children) {
    if (incoming.tag === 'member') {
      if (!target.children.some((c) => c.tag === 'member' && c.text === incoming.text))
        target.children.push(clone(incoming));
      continue;
    }
    const existing = target.children.find(
      (c) => c.tag === incoming.tag && (incoming.attrs.name === undefined || c.attrs.name === incoming.attrs.name),
    );
    if (existing) mergeInto(existing, incoming);
    else target.children.push(clone(incoming));
  }
  delete target.text;
}

export function clone(node: XmlNode): XmlNode {
  return JSON.parse(JSON.stringify(node)) as XmlNode;
}
