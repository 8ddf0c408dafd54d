// Express app factory for the admin API (no listen). Routes are declared in one table: method, path, the
// credential they need, and a thin handler that validates input and calls a use case in src/domain.
import express, { type Request, type Response } from 'express';
import helmet from 'helmet';
import {
  ApiError,
  ZListQuery,
  errorHandler,
  notFoundHandler,
  parseOrThrow,
  parseQueryString,
  requestIdMiddleware,
  requireJsonContentType,
  requestIdOf,
  rateLimitSettings,
  RequestGuard,
  type Config,
  type Logger,
  parseAllowList,
  hsts,
} from '@risk/common';
import type { PrismaClient } from '@risk/db';
import type IORedis from 'ioredis';
import {
  ZAssignPolicyBody,
  ZConfigureLoggingBody,
  ZCreateDeploymentTokenBody,
  ZCreateFirewallBody,
  ZCreatePolicyBody,
  ZCreateRuleBody,
  ZCreateTenantBody,
  ZCreateTenantTokenBody,
  ZForceDeleteQuery,
  ZReorderRulesBody,
  ZUpdateFirewallBody,
  ZUpdatePolicyBody,
  ZUpdateRuleBody,
  ADMIN_ROUTE_DOCS,
} from '@risk/contracts';
import { bearerOf, createTenantTokenSigner, isAdminToken } from './auth';
import { buildAdminOpenApiDocument } from './openapi';
import {
  aiCategories,
  createConnector,
  defaultConnectorContext,
  generalCategories,
  vendorAiCategoryColumns,
  vendorCategoryColumns,
  type FirewallConnection,
  type FirewallConnector,
} from '@risk/firewalls';
import * as tenants from './domain/tenants/tenants';
import * as tenantTokens from './domain/tenants/tenant-tokens';
import { getTenant } from './domain/tenants/get-tenant';
import * as deployment from './domain/tenants/deployment-tokens';
import * as firewalls from './domain/firewalls/firewalls';
import * as policies from './domain/policies/policies';
import { serializeFirewall, serializePolicy, serializeTenant } from './domain/serializers';
import { riskScoreForTenant } from './domain/risk-score/risk-score-for-tenant';

export interface AppDeps {
  config: Config;
  db: PrismaClient;
  logger: Logger;
  /** resolves when Redis answers PING */
  pingRedis: () => Promise<unknown>;
  /** tests inject a connector context (timeouts); defaults to 10 s and OUTBOUND_ALLOWED_HOSTS */
  connectorFor?: (connection: FirewallConnection) => FirewallConnector;
  /**
   * the connection rate-limit counters live on (fail-fast: no offline queue; main.ts passes it); without
   * it (and without `guard`) the counters are per process, not shared by replicas
   */
  redis?: IORedis;
  /** rate limits (docs/security.md "Rate limits and caps"); built on `redis` when absent */
  guard?: RequestGuard;
}

type Auth = 'admin' | 'tenant' | 'none';
interface Ctx {
  req: Request;
  res: Response;
  tenantId: string;
  query: Record<string, string | string[]>;
  body: unknown;
}

function guardOn(deps: AppDeps): RequestGuard {
  return new RequestGuard(rateLimitSettings(deps.config), deps.redis ?? null, deps.config.REDIS_PREFIX, deps.logger);
}

export function createApp(deps: AppDeps) {
  const { config, db, logger } = deps;
  const secretsKey = config.SECRETS_KEY ?? '';
  const signer = createTenantTokenSigner(secretsKey);
  const allowList = parseAllowList(config.OUTBOUND_ALLOWED_HOSTS);
  const connectorContext = { ...defaultConnectorContext(config.OUTBOUND_ALLOWED_HOSTS), allowList };
  const connectorFor = deps.connectorFor ?? ((c: FirewallConnection) => createConnector(c, connectorContext));
  const fwDeps = { secretsKey, allowList, connectorFor };
  const ttlDays = config.TENANT_TOKEN_TTL_DAYS;

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestIdMiddleware());
  app.use(hsts(config.HSTS_MAX_AGE_SECONDS));
  // one access-log line per request: the route pattern and req.path only, never the query string
  // (GET /deploy/v1/credentials carries its secret there) and never a header or body
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      logger.info('request', {
        method: req.method,
        route: route ?? null,
        path: route ? undefined : req.path,
        status: res.statusCode,
        request_id: requestIdOf(res),
        duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      });
    });
    next();
  });
  app.use(helmet({ strictTransportSecurity: false })); // HSTS only over HTTPS: hsts() above
  app.use(requireJsonContentType());
  // bodies are read per route, after authentication and the caller's rate limit (see route() below)
  const jsonBody = express.json({ limit: '1mb' });
  const readBody = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => {
      void jsonBody(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve()));
    });
  const guard = deps.guard ?? guardOn(deps);

  async function authenticate(req: Request, auth: Auth): Promise<string> {
    if (auth === 'none') return '';
    const token = bearerOf(req.headers.authorization);
    if (!token) throw new ApiError('token_missing', { message: 'Send Authorization: Bearer <token>.' });
    if (isAdminToken(token, config.ADMIN_API_TOKEN)) {
      if (auth === 'admin') return '';
      throw new ApiError('tenant_token_required', {
        message: 'This route needs a tenant token (the admin token manages tenants only).',
      });
    }
    const claims = await signer.verify(token);
    if (auth === 'admin') throw new ApiError('admin_token_required', { message: 'This route needs the admin token.' });
    await tenantTokens.checkTenantToken(db, claims);
    return claims.tenantId;
  }

  const route = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    auth: Auth,
    status: number,
    handler: (ctx: Ctx) => Promise<unknown> | unknown,
  ) => {
    app[method](path, async (req, res) => {
      // per-IP failed-auth block, then the credential, then the tenant's (or the admin token's) limit,
      // and only then the body. On 'none' routes the handler itself checks the credential it is given
      // (a deployment token), so its 401s count against the client address too.
      // A blocked address is refused before such a handler runs (it has effects: an exchange mints a key).
      if (auth === 'none') {
        const result = await guard.authenticate(req, () => runRoute(req, res, '', handler));
        res.status(status).json(result);
        return;
      }
      const tenantId = await guard.authenticate(req, () => authenticate(req, auth));
      await guard.limit(res, 'admin', tenantId || 'admin-token');
      res.status(status).json(await runRoute(req, res, tenantId, handler));
    });
  };
  const runRoute = async (
    req: Request,
    res: Response,
    tenantId: string,
    handler: (ctx: Ctx) => Promise<unknown> | unknown,
  ): Promise<unknown> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') await readBody(req, res);
    const query = parseQueryString(req.url.split('?')[1] ?? '');
    return handler({ req, res, tenantId, query, body: req.body ?? {} });
  };
  const param = (ctx: Ctx, name: string) => String(ctx.req.params[name]);
  const page = (ctx: Ctx) => parseOrThrow(ZListQuery, ctx.query);

  // ── index, health, docs ──
  route('get', '/', 'none', 200, () => ({
    service: 'Admin API',
    status: 'running',
    version: '1.0.0',
    endpoints: Object.fromEntries(
      ADMIN_ROUTE_DOCS.map((r) => [`${r.method.toUpperCase()} ${r.path}`, { auth: r.auth, summary: r.summary }]),
    ),
  }));
  app.get('/health', async (_req, res) => {
    const check = async (fn: () => Promise<unknown>) => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          fn(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out after 2000 ms')), 2000))),
        ]);
        return { status: 'up', latency_ms: Date.now() - started };
      } catch (err) {
        return { status: 'down', error: err instanceof Error ? err.message : String(err) };
      } finally {
        clearTimeout(timer); // a settled check must not keep a 2 s timer alive per request
      }
    };
    const [postgres, redis] = await Promise.all([check(() => db.$queryRaw`SELECT 1`), check(deps.pingRedis)]);
    const ok = postgres.status === 'up' && redis.status === 'up';
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ok' : 'degraded', service: 'Admin API', checks: { postgres, redis } });
  });
  const openapi = buildAdminOpenApiDocument();
  route('get', '/openapi.json', 'none', 200, () => openapi);

  // ── deploy credentials (public: the token is the credential) ──
  route('get', '/deploy/v1/credentials', 'none', 200, (ctx) => {
    const token = ctx.query.token;
    if (token === undefined || token === '') throw new ApiError('missing_required_param', { param: 'token' });
    if (Array.isArray(token))
      throw new ApiError('parameter_invalid', { param: 'token', message: 'token must be given once.' });
    return deployment.exchangeDeploymentToken(db, { token, apiBaseUrl: config.PUBLIC_API_BASE_URL });
  });

  // ── tenants (admin token) ──
  route('post', '/tenants/v1/register', 'admin', 201, (ctx) =>
    tenants.registerTenant(db, signer, { ...parseOrThrow(ZCreateTenantBody, ctx.body), ttlDays }),
  );
  route('get', '/tenants/v1', 'admin', 200, (ctx) => tenants.listTenants(db, page(ctx)));
  route('get', '/tenants/v1/:id', 'admin', 200, async (ctx) => serializeTenant(await getTenant(db, param(ctx, 'id'))));
  route('post', '/tenants/v1/:id/suspend', 'admin', 200, (ctx) =>
    tenants.setTenantStatus(db, param(ctx, 'id'), 'suspended'),
  );
  route('post', '/tenants/v1/:id/reactivate', 'admin', 200, (ctx) =>
    tenants.setTenantStatus(db, param(ctx, 'id'), 'active'),
  );
  route('post', '/tenants/v1/:id/tokens', 'admin', 201, (ctx) => {
    const body = parseOrThrow(ZCreateTenantTokenBody, ctx.body);
    return tenantTokens.mintTenantToken(db, signer, {
      tenantId: param(ctx, 'id'),
      ttlDays: body.expires_in_days ?? ttlDays,
      name: body.name,
    });
  });
  route('get', '/tenants/v1/:id/tokens', 'admin', 200, (ctx) =>
    tenantTokens.listTenantTokens(db, param(ctx, 'id'), page(ctx)),
  );
  route('delete', '/tenants/v1/:id/tokens/:token_id', 'admin', 200, (ctx) =>
    tenantTokens.revokeTenantToken(db, { tenantId: param(ctx, 'id'), tokenId: param(ctx, 'token_id') }),
  );
  route('post', '/tenants/v1/:id/deployment-token', 'admin', 201, (ctx) =>
    deployment.createDeploymentToken(db, {
      tenantId: param(ctx, 'id'),
      ...parseOrThrow(ZCreateDeploymentTokenBody, ctx.body),
    }),
  );
  route('get', '/tenants/v1/:id/deployment-tokens', 'admin', 200, (ctx) =>
    deployment.listDeploymentTokens(db, param(ctx, 'id'), page(ctx)),
  );
  route('delete', '/tenants/v1/:id/deployment-token/:token_id', 'admin', 200, (ctx) =>
    deployment.revokeDeploymentToken(db, { tenantId: param(ctx, 'id'), tokenId: param(ctx, 'token_id') }),
  );

  // ── firewalls (tenant token) ──
  route('post', '/firewalls/v1', 'tenant', 201, (ctx) =>
    firewalls.createFirewall(db, fwDeps, ctx.tenantId, parseOrThrow(ZCreateFirewallBody, ctx.body)),
  );
  route('get', '/firewalls/v1', 'tenant', 200, (ctx) => firewalls.listFirewalls(db, ctx.tenantId, page(ctx)));
  route('get', '/firewalls/v1/:id', 'tenant', 200, async (ctx) =>
    serializeFirewall(await firewalls.findFirewall(db, ctx.tenantId, param(ctx, 'id'))),
  );
  route('put', '/firewalls/v1/:id', 'tenant', 200, (ctx) =>
    firewalls.updateFirewall(db, fwDeps, ctx.tenantId, param(ctx, 'id'), parseOrThrow(ZUpdateFirewallBody, ctx.body)),
  );
  route('delete', '/firewalls/v1/:id', 'tenant', 200, (ctx) =>
    firewalls.deleteFirewall(
      db,
      ctx.tenantId,
      param(ctx, 'id'),
      parseOrThrow(ZForceDeleteQuery, ctx.query).force === 'true',
    ),
  );
  route('post', '/firewalls/v1/:id/test', 'tenant', 200, async (ctx) => {
    const result = await firewalls.testFirewall(db, fwDeps, ctx.tenantId, param(ctx, 'id'));
    logger.info('firewall test', {
      tenant_id: ctx.tenantId,
      firewall_id: result.firewall_id,
      ok: result.ok,
      latency_ms: result.latency_ms,
      error: result.error,
    });
    return result;
  });
  route('post', '/firewalls/v1/:id/configure-vendor-logging', 'tenant', 200, async (ctx) => {
    const result = await firewalls.configureVendorLogging(
      db,
      fwDeps,
      ctx.tenantId,
      param(ctx, 'id'),
      parseOrThrow(ZConfigureLoggingBody, ctx.body),
    );
    logger.info('firewall logging configured', {
      tenant_id: ctx.tenantId,
      firewall_id: result.firewall_id,
      ok: result.ok,
      error: result.error,
    });
    return result;
  });

  // ── categories ──
  route('get', '/policies/v1/categories', 'tenant', 200, () => ({
    object: 'list',
    data: generalCategories.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      ...vendorCategoryColumns(c.id),
    })),
    has_more: false,
    url: '/policies/v1/categories',
    next_cursor: null,
  }));
  route('get', '/policies/v1/categories/ai', 'tenant', 200, () => ({
    object: 'list',
    data: aiCategories.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      parent: c.parent,
      ...vendorAiCategoryColumns(c),
      vendors: c.vendors,
      domains: c.domains,
    })),
    has_more: false,
    url: '/policies/v1/categories/ai',
    next_cursor: null,
  }));

  // ── URL-filter policies ──
  route('post', '/policies/v1/url-filter', 'tenant', 201, (ctx) =>
    policies.createPolicy(db, ctx.tenantId, parseOrThrow(ZCreatePolicyBody, ctx.body)),
  );
  route('get', '/policies/v1/url-filter', 'tenant', 200, (ctx) => policies.listPolicies(db, ctx.tenantId, page(ctx)));
  route('get', '/policies/v1/url-filter/:id', 'tenant', 200, async (ctx) =>
    serializePolicy(await policies.findPolicy(db, ctx.tenantId, param(ctx, 'id'))),
  );
  route('put', '/policies/v1/url-filter/:id', 'tenant', 200, (ctx) =>
    policies.updatePolicy(db, ctx.tenantId, param(ctx, 'id'), parseOrThrow(ZUpdatePolicyBody, ctx.body)),
  );
  route('delete', '/policies/v1/url-filter/:id', 'tenant', 200, (ctx) =>
    policies.deletePolicy(
      db,
      ctx.tenantId,
      param(ctx, 'id'),
      parseOrThrow(ZForceDeleteQuery, ctx.query).force === 'true',
    ),
  );
  route('post', '/policies/v1/url-filter/:id/rules/reorder', 'tenant', 200, (ctx) =>
    policies.reorderRules(db, ctx.tenantId, param(ctx, 'id'), parseOrThrow(ZReorderRulesBody, ctx.body)),
  );
  route('post', '/policies/v1/url-filter/:id/rules', 'tenant', 201, (ctx) =>
    policies.addRule(db, ctx.tenantId, param(ctx, 'id'), parseOrThrow(ZCreateRuleBody, ctx.body)),
  );
  route('put', '/policies/v1/url-filter/:id/rules/:ruleId', 'tenant', 200, (ctx) =>
    policies.updateRule(
      db,
      ctx.tenantId,
      param(ctx, 'id'),
      param(ctx, 'ruleId'),
      parseOrThrow(ZUpdateRuleBody, ctx.body),
    ),
  );
  route('delete', '/policies/v1/url-filter/:id/rules/:ruleId', 'tenant', 200, (ctx) =>
    policies.deleteRule(db, ctx.tenantId, param(ctx, 'id'), param(ctx, 'ruleId')),
  );
  route('post', '/policies/v1/url-filter/:id/assign', 'tenant', 200, (ctx) =>
    policies.assignPolicy(db, ctx.tenantId, param(ctx, 'id'), parseOrThrow(ZAssignPolicyBody, ctx.body).firewall_ids),
  );
  route('delete', '/policies/v1/url-filter/:id/assign/:fwId', 'tenant', 200, (ctx) =>
    policies.unassignPolicy(db, ctx.tenantId, param(ctx, 'id'), param(ctx, 'fwId')),
  );

  // ── tools ──
  route('get', '/tools/v1/risk-score', 'tenant', 200, (ctx) => {
    const url = ctx.query.url;
    if (url === undefined || url === '') throw new ApiError('missing_required_param', { param: 'url' });
    if (Array.isArray(url))
      throw new ApiError('parameter_invalid', { param: 'url', message: 'url must be given once.' });
    return riskScoreForTenant(db, ctx.tenantId, url);
  });

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
