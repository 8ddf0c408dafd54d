// The two clients: openapi-fetch over the generated types (src/generated), the retrying transport (retry.ts),
// errors thrown as RiskApiError (errors.ts), and list auto-pagination (pagination.ts).
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { RiskApiError } from './errors';
import type { paths as AdminPaths } from './generated/admin-api';
import type { paths as PublicPaths } from './generated/public-api';
import { paginate, type ListItem, type ListPath } from './pagination';
import { idempotentPostOf, IDEMPOTENT_POSTS } from './idempotent-posts';
import { createTransport, type RetryOptions, type TransportOptions } from './retry';

export type { AdminPaths, PublicPaths };

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type Media = `${string}/${string}`;
// openapi-fetch's own helpers (not exported): the init argument is optional when nothing in it is required
type RequiredKeysOfHelper<T> = { [K in keyof T]: object extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

export type PathsWith<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: infer Op } ? (Op extends undefined | never ? never : P) : never;
}[keyof Paths];

/** The parsed 2xx body of `method path`. */
export type ResponseData<Paths, Path extends keyof Paths, M extends HttpMethod, Init = object> =
  Paths[Path] extends Record<M, infer Op extends Record<string | number, unknown>>
    ? NonNullable<FetchResponse<Op, Init, Media>['data']>
    : never;

/** A method that resolves to the 2xx body and rejects with RiskApiError otherwise. */
export type DataMethod<Paths extends object, M extends HttpMethod> = <
  Path extends PathsWith<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M & keyof Paths[Path]>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<ResponseData<Paths, Path, M, Init>>;

export interface RiskClient<Paths extends object> {
  get: DataMethod<Paths, 'get'>;
  post: DataMethod<Paths, 'post'>;
  put: DataMethod<Paths, 'put'>;
  delete: DataMethod<Paths, 'delete'>;
  /**
   * Every item of a list route, fetching pages as the loop goes. Forward (newest to oldest) from the start
   * or from `starting_after`; with `ending_before`, backward: items newer than the cursor, oldest first.
   */
  list<Path extends ListPath<Paths>, Init extends MaybeOptionalInit<Paths[Path], 'get' & keyof Paths[Path]>>(
    path: Path,
    ...init: InitParam<Init>
  ): AsyncIterableIterator<ListItem<Paths, Path>>;
  /** The openapi-fetch client underneath (`{data, response}`, headers included); errors throw here too. */
  raw: Client<Paths, Media>;
}

export interface ClientOptions extends RetryOptions {
  /** e.g. `http://localhost:8080` (public API) or `http://localhost:8081` (admin API) */
  baseUrl: string;
  /** extra headers on every request */
  headers?: Record<string, string>;
  /** a fetch implementation (default: the global fetch) */
  fetch?: typeof globalThis.fetch;
}

export interface PublicClientOptions extends ClientOptions {
  /** `rk_live_…` or `rk_test_…` */
  apiKey: string;
}

export interface AdminClientOptions extends ClientOptions {
  /** the admin token, or a tenant token; omit for the deployment-credentials exchange */
  token?: string;
}

/**
 * Client of the public API (/v1): every POST its document marks idempotent (IDEMPOTENT_POSTS, generated) carries
 * an Idempotency-Key and is retried safely; any other POST is retried only when it certainly was not processed.
 */
export function createPublicClient(options: PublicClientOptions): RiskClient<PublicPaths> {
  return createRiskClient<PublicPaths>(options, options.apiKey, idempotentPostOf(IDEMPOTENT_POSTS['public-api']));
}

/**
 * Client of the admin API. Its POSTs take no Idempotency-Key except those its document marks (IDEMPOTENT_POSTS,
 * generated: `POST /keys/v1`), which get a key and are retried like on the public API; any other POST is retried
 * only when it certainly was not processed (429, connection refused); GET, PUT and DELETE are retried like on the
 * public API.
 */
export function createAdminClient(options: AdminClientOptions): RiskClient<AdminPaths> {
  return createRiskClient<AdminPaths>(options, options.token, idempotentPostOf(IDEMPOTENT_POSTS['admin-api']));
}

const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await RiskApiError.fromResponse(response);
    return undefined;
  },
};

/** `https://host/` → `https://host`. A scan from the end: `/\/+$/` is quadratic on a long run of slashes. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47 /* '/' */) end--;
  return url.slice(0, end);
}

function createRiskClient<Paths extends object>(
  options: ClientOptions,
  bearer: string | undefined,
  idempotencyKeys: TransportOptions['idempotencyKeys'],
): RiskClient<Paths> {
  const raw = createClient<Paths, Media>({
    baseUrl: withoutTrailingSlashes(options.baseUrl),
    headers: { ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}), ...options.headers },
    fetch: createTransport({ ...options, idempotencyKeys }),
  });
  raw.use(throwOnError);

  // openapi-fetch types each call from its arguments; the wrappers only drop the {data, response} shell
  const call =
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
    async (path: string, ...init: unknown[]): Promise<unknown> => {
      const request = raw[method] as (p: string, ...i: unknown[]) => Promise<{ data?: unknown }>;
      return (await request(path, ...init)).data;
    };
  const get = call('GET');
  return {
    get: get as DataMethod<Paths, 'get'>,
    post: call('POST') as DataMethod<Paths, 'post'>,
    put: call('PUT') as DataMethod<Paths, 'put'>,
    delete: call('DELETE') as DataMethod<Paths, 'delete'>,
    list: ((path: string, init?: { params?: { query?: Record<string, unknown> } }) =>
      paginate(get, path, init)) as RiskClient<Paths>['list'],
    raw,
  };
}
