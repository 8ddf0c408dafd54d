// The PAN-OS XML API reply envelope (docs/firewalls.md "PAN-OS").
import { escapeXml } from '../../../lib/xml-tree';
export function response(status: 'success' | 'error', code: string | undefined, inner: string): string {
  return `<response status="${status}"${code ? ` code="${code}"` : ''}>${inner}</response>`;
}

export interface ApiReply {
  http: number;
  body: string;
}

/** The 400 PAN-OS answers a request without a required query parameter. */
export function missingParameter(name: string): ApiReply {
  return { http: 400, body: response('error', '400', `<result><msg>Missing parameter: ${name}</msg></result>`) };
}

/** The 400 PAN-OS answers a query parameter with a value it does not know. */
export function illegalValue(param: string, value: string): ApiReply {
  return {
    http: 400,
    body: response(
      'error',
      '400',
      `<result><msg>Illegal value for parameter "${param}" [${escapeXml(value)}]</msg></result>`,
    ),
  };
}
