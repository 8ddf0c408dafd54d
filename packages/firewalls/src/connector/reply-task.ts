// What runs in a firewall reply thread (reply-parser.ts): parse one reply body, nothing else. A hostile "firewall"
// controls every byte of it, and fast-xml-parser spends about a second per 256 KiB of crafted XML (attribute bombs,
// deep nesting, a million siblings), so it never runs on a service's main thread (docs/firewalls.md "Replies").
import { budgetedTask } from '@risk/thread-pool';
import { parseXml } from '../lib/xml-tree';

export interface ReplyParse {
  format: 'xml' | 'json';
  body: string;
}

/** XML: the element tree (xml-tree.ts); JSON: the value. Throws on a malformed body. */
export default budgetedTask(({ format, body }: ReplyParse): unknown =>
  format === 'xml' ? parseXml(body) : (JSON.parse(body) as unknown),
);
