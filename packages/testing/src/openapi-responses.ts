// Every response an integration suite receives is checked against the service's OpenAPI document
// (docs/architecture.md "Routes"): the status must be documented for the operation, the content type
// must be one the operation declares, and a JSON body must match the declared schema. A request outside the
// document (an unknown path or method) must be answered in the error envelope. Mismatches are collected and
// fail the test that received them (an afterEach hook), so no test has to call anything.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components?: Json & { schemas?: Record<string, Json> };
}

export interface ReceivedResponse {
  method: string;
  /** path and query, or a full URL */
  url: string;
  status: number;
  contentType: string | undefined;
  /** the raw body */
  text: string;
}

export interface ResponseValidatorOptions {
  /** paths served outside the document on purpose (the docs site, /metrics, the document itself) */
  outside?: readonly RegExp[];
}

export type ResponseValidator = (response: ReceivedResponse) => string | undefined;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

export function createResponseValidator(document: unknown, options: ResponseValidatorOptions = {}): ResponseValidator {
  const doc = document as OpenApiDocument;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `#/components/…` refs resolve against the wrapper's root
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new WeakMap<Json, ValidateFunction>();
  const compile = (schema: Json): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: doc.components });
      compiled.set(schema, validate);
    }
    return validate;
  };
  const envelope = doc.components?.schemas?.ErrorEnvelope;
  if (!envelope) throw new Error('the document has no ErrorEnvelope schema');

  const operations = Object.entries(doc.paths ?? {}).map(([template, item]) => ({
    template,
    segments: template.toLowerCase().split('/'),
    literal: !template.includes('{'),
    item,
  }));

  // express matches paths case-insensitively and with an optional trailing slash (its defaults); a `{param}`
  // segment matches any one non-empty segment. Segment by segment: no RegExp built from the document.
  const matches = (segments: readonly string[], path: string): boolean => {
    const parts = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase().split('/');
    return (
      parts.length === segments.length &&
      segments.every((seg, i) => (seg.startsWith('{') && seg.endsWith('}') ? parts[i] !== '' : seg === parts[i]))
    );
  };

  const checkJson = (schema: Json | undefined, text: string, where: string): string | undefined => {
    if (!schema) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${where}: the body is not JSON: ${text.slice(0, 200)}`;
    }
    const validate = compile(schema);
    if (validate(body)) return undefined;
    return `${where}: the body does not match the schema: ${ajv.errorsText(validate.errors)}\n  body: ${text.slice(0, 500)}`;
  };

  return (response) => {
    const method = response.method.toLowerCase();
    // not decoded: a malformed escape (a hostile-input test) must not throw here, and templates match either way
    const path = rawPathname(response.url);
    const where = `${response.method.toUpperCase()} ${path} → ${response.status}`;
    const mediaType = response.contentType?.split(';')[0]?.trim().toLowerCase();
    if (options.outside?.some((pattern) => pattern.test(path))) return undefined;
    // a literal path (`/v1/assets/lookup`) wins over a template (`/v1/assets/{fingerprint}`), as in the routers
    const matching = operations.filter((o) => matches(o.segments, path) && o.item[method]);
    const operation = (matching.find((o) => o.literal) ?? matching[0])?.item[method];
    if (!operation || !METHODS.has(method)) {
      if (method === 'head' || method === 'options') return undefined;
      if (response.status < 400) return `${where}: a success for a request the document does not describe`;
      if (mediaType !== 'application/json') return `${where}: an error outside the document not in JSON (${mediaType})`;
      return checkJson(envelope, response.text, `${where} (outside the document, the error envelope)`);
    }
    const documented = operation.responses?.[String(response.status)] ?? operation.responses?.default;
    if (!documented) {
      return `${where}: status not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`;
    }
    if (!documented.content) {
      return response.text.length === 0 ? undefined : `${where}: a body where the document declares none`;
    }
    const media = mediaType ? documented.content[mediaType] : undefined;
    if (!media) {
      return `${where}: content type ${mediaType} not documented (${Object.keys(documented.content).join(', ')})`;
    }
    return mediaType === 'application/json' || mediaType?.endsWith('+json')
      ? checkJson(media.schema, response.text, where)
      : undefined;
  };
}

function rawBody(body: unknown): string {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return JSON.stringify(body);
}

/**
 * Checks every response that supertest hands to this test file against `document`, and fails the test that
 * received a mismatch. Call once from a jest setup file (setupFilesAfterEnv).
 */
export function validateSupertestResponses(
  document: unknown,
  options: ResponseValidatorOptions & {
    /** a second service the suites also call (admin suites reach the public API), by path */
    also?: { paths: RegExp; document: unknown; options?: ResponseValidatorOptions };
    /**
     * same-origin proxies (the console's /console/v1/admin and /console/v1/public, docs/console.md): a response
     * under `prefix` is checked as the response of the path without it, in this document or the `also` one
     */
    proxied?: ReadonlyArray<{ prefix: string; document: 'own' | 'also' }>;
  } = {},
): void {
  const own = createResponseValidator(document, options);
  const also = options.also && createResponseValidator(options.also.document, options.also.options);
  const direct: ResponseValidator = (response) =>
    also && options.also!.paths.test(rawPathname(response.url)) ? also(response) : own(response);
  const validate: ResponseValidator = (response) => {
    const path = rawPathname(response.url);
    const proxy = options.proxied?.find((p) => path.startsWith(`${p.prefix}/`));
    if (!proxy) return direct(response);
    const url =
      path.slice(proxy.prefix.length) +
      (response.url.includes('?') ? response.url.slice(response.url.indexOf('?')) : '');
    return (proxy.document === 'also' && also ? also : own)({ ...response, url });
  };
  const mismatches: string[] = [];
  // supertest calls Test#assert with every response it receives, whether the test awaits it or calls end()
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Test = require('supertest/lib/test.js') as {
    prototype: { assert: (err: unknown, res: unknown, fn: unknown) => unknown };
  };
  const assert = Test.prototype.assert;
  // eslint-disable-next-line @typescript-eslint/max-params -- supertest's Test.prototype.assert signature
  Test.prototype.assert = function (this: { method: string; url: string }, err, res, fn) {
    const received = res as
      { status?: number; headers?: Record<string, string>; text?: string; body?: unknown } | undefined;
    if (received?.status !== undefined) {
      const mismatch = validate({
        method: this.method,
        url: this.url,
        status: received.status,
        contentType: received.headers?.['content-type'],
        // superagent leaves text empty for the media types it parses itself (`+json`)
        // (a test's own parser may hand the raw body over as a string or a Buffer instead)
        // (a bodiless reply — a 304 — leaves superagent's parsed body `{}` with no content type: no body)
        text: received.text || (received.headers?.['content-type'] ? rawBody(received.body) : ''),
      });
      if (mismatch) mismatches.push(mismatch);
    }
    return assert.call(this, err, res, fn);
  };
  afterEach(() => {
    const found = mismatches.splice(0);
    if (found.length > 0) {
      throw new Error(`responses that do not match the OpenAPI document:\n${found.join('\n')}`);
    }
  });
}

/**
 * The path as sent: `new URL()` would resolve dot segments (`/firewalls/v1/.` → `/firewalls/v1/`) that the
 * HTTP client sends as they are and the server routes as a parameter, and so match the wrong operation.
 */
export function rawPathname(url: string): string {
  const slash = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.indexOf('/', url.indexOf('//') + 2) : 0;
  const afterHost = slash === -1 ? '/' : url.slice(slash);
  const end = afterHost.search(/[?#]/);
  const path = end === -1 ? afterHost : afterHost.slice(0, end);
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * Checks a webhook delivery's body against the payload schema its event type has in the document's `webhooks`
 * section (docs/webhooks.md), so the document and what the worker sends cannot drift. Returns the mismatch, if any.
 */
export function createWebhookPayloadValidator(document: unknown): (body: string) => string | undefined {
  const doc = document as OpenApiDocument & {
    webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, MediaType> } } }>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return (body) => {
    const event = JSON.parse(body) as { type?: string };
    const type = String(event.type);
    const schema = doc.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return `webhook ${type}: not in the document's webhooks`;
    const validate = ajv.compile({ ...schema, components: doc.components });
    return validate(event) ? undefined : `webhook ${type}: ${ajv.errorsText(validate.errors)}`;
  };
}
