// FortiOS REST API v2 connector (docs/firewalls.md "FortiOS"): JSON over HTTPS with the token as
// `Authorization: Bearer`, vdom root. FortiOS sometimes answers 200 with status "error", so the envelope's
// status is checked, not only the HTTP code. Each reply is capped at what FortiOS sends for the call and parsed off
// the main thread (docs/firewalls.md "Replies"); an existence check asks only for the object's key (`format`), so
// its reply stays small however many entries the object holds.
import { ConnectorError } from '../../connector/errors';
import { httpsCall, REPLY_CAP_BYTES, type ConnectorContext } from '../../connector/https-client';
import { parseJsonReply } from '../../connector/reply-parser';
import type {
  FeedCredential,
  FirewallConnection,
  FirewallConnector,
  FirewallTestInfo,
  LoggingOptions,
  LoggingResult,
  PushedObjects,
} from '../../connector/types';
import { compileFortios, type FortiCompiledPolicy } from './compile';
import { PolicyTranslationError } from '../../policy/translation-error';
import type { PolicyModel } from '../../policy/policy-model';

interface FortiEnvelope {
  status?: string;
  http_status?: number;
  error?: number;
  cli_error?: string;
  results?: unknown;
  mkey?: string | number;
  version?: string;
  serial?: string;
}

const MODE = { udp: 'udp', tcp: 'reliable', tls: 'reliable' } as const;

/** What a FortiOS push leaves: the web filter profile and the static URL filter table it points at. */
export interface FortiPushedObjects extends PushedObjects {
  vendor: 'fortinet';
  urlfilter_id: number;
  /** external threat feeds pulling the risk feed (absent in records written before feeds existed) */
  external_resources?: string[];
}

const isFortiPushed = (pushed: PushedObjects | null): pushed is FortiPushedObjects => pushed?.vendor === 'fortinet';

export class FortinetConnector implements FirewallConnector {
  constructor(
    private readonly connection: FirewallConnection,
    private readonly context: ConnectorContext,
  ) {}

  private async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    apiPath: string,
    options: { body?: unknown; allowNotFound?: boolean } = {},
  ): Promise<FortiEnvelope | null> {
    const { body, allowNotFound = false } = options;
    const separator = apiPath.includes('?') ? '&' : '?';
    const result = await httpsCall(
      { host: this.connection.host, port: this.connection.port, verifySsl: this.connection.verify_ssl },
      {
        method,
        path: `${apiPath}${separator}vdom=root`,
        headers: {
          Authorization: `Bearer ${this.connection.api_token}`,
          Accept: 'application/json',
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        maxReplyBytes: REPLY_CAP_BYTES,
      },
      this.context,
    );
    if (result.status === 401) throw new ConnectorError('auth_rejected', 'FortiOS rejected the API token (HTTP 401)');
    if (result.status === 403)
      throw new ConnectorError(
        'auth_rejected',
        'FortiOS refused the request (HTTP 403: the API admin profile lacks permission or a trusted host)',
      );
    let envelope: FortiEnvelope;
    try {
      envelope = (await parseJsonReply(result.body, 'FortiOS')) as FortiEnvelope;
    } catch (err) {
      if (err instanceof ConnectorError) throw err; // over the parse budget
      throw new ConnectorError(
        'unexpected_response',
        `FortiOS answered HTTP ${result.status} with a body that is not JSON (is this a FortiGate REST API?)`,
      );
    }
    if (typeof envelope !== 'object' || envelope === null || !('status' in envelope)) {
      throw new ConnectorError('unexpected_response', `FortiOS answered HTTP ${result.status} without a status field`);
    }
    if (envelope.status !== 'success') {
      if (allowNotFound && (envelope.http_status === 404 || result.status === 404)) return null;
      throw new ConnectorError(
        'vendor_error',
        `FortiOS error on ${method} ${apiPath}: http_status ${envelope.http_status ?? result.status}` +
          `${envelope.error !== undefined ? `, error ${envelope.error}` : ''}${envelope.cli_error ? ` (${envelope.cli_error})` : ''}`,
      );
    }
    return envelope;
  }

  async test(): Promise<FirewallTestInfo> {
    const envelope = (await this.request('GET', '/api/v2/monitor/system/status'))!;
    const results = envelope.results as Record<string, unknown> | undefined;
    if (!results || typeof results !== 'object')
      throw new ConnectorError('unexpected_response', 'FortiOS system status has no results');
    const model =
      [results.model_name, results.model_number].filter((v) => typeof v === 'string' && v).join(' ') || null;
    return {
      model,
      version: envelope.version ?? null,
      hostname: typeof results.hostname === 'string' ? results.hostname : null,
      serial: envelope.serial ?? null,
    };
  }

  async configureLogging(options: LoggingOptions): Promise<LoggingResult> {
    const setting = {
      status: 'enable',
      server: options.syslog_server,
      mode: MODE[options.mode],
      port: options.syslog_port,
      facility: options.facility.replace('LOG_', '').toLowerCase(),
      format: 'default',
      'enc-algorithm': options.mode === 'tls' ? 'high' : 'disable',
    };
    await this.request('PUT', '/api/v2/cmdb/log.syslogd/setting', { body: setting });
    return { vendor_config: { path: 'log.syslogd/setting', ...setting } };
  }

  /**
   * The risk feeds as external threat feeds of type FortiGuard Category (remote categories), created or updated
   * before the profile whose category filter names their ids; FortiOS pulls a feed when it is saved.
   */
  private async putExternalResources(compiled: FortiCompiledPolicy, feed: FeedCredential | null | undefined) {
    if (compiled.externalResources.length && !feed)
      throw new ConnectorError(
        'policy_not_translatable',
        'a rule references the risk feed but no feed credential was given',
      );
    for (const r of compiled.externalResources) {
      const body = {
        name: r.name,
        type: 'category',
        category: r.category,
        resource: r.resource,
        username: feed!.username,
        password: feed!.password,
        'refresh-rate': 5,
        status: 'enable',
        comments: `risk-intel feed, assets ${r.severity} and above`,
      };
      const at = `/api/v2/cmdb/system/external-resource/${encodeURIComponent(r.name)}`;
      if (await this.request('GET', `${at}?format=name`, { allowNotFound: true }))
        await this.request('PUT', at, { body });
      else await this.request('POST', '/api/v2/cmdb/system/external-resource', { body });
    }
  }

  async applyUrlPolicy(
    policy: PolicyModel,
    previous: PushedObjects | null,
    feed?: FeedCredential | null,
  ): Promise<FortiPushedObjects> {
    let compiled: FortiCompiledPolicy;
    try {
      compiled = compileFortios(policy);
    } catch (err) {
      if (err instanceof PolicyTranslationError) throw new ConnectorError('policy_not_translatable', err.message);
      throw err;
    }
    await this.putExternalResources(compiled, feed);
    const table = {
      name: compiled.tableName,
      comment: `risk-intel policy ${policy.id} v${policy.version}`,
      'ip-addr-block': 'disable',
      'include-subdomains': 'disable',
      entries: compiled.entries,
    };
    let tableId: number | null = null;
    if (isFortiPushed(previous)) {
      // only the key: the table itself holds every domain entry of the policy (up to 200 rules × 500 domains)
      const existing = await this.request(
        'GET',
        `/api/v2/cmdb/webfilter/urlfilter/${previous.urlfilter_id}?format=id`,
        {
          allowNotFound: true,
        },
      );
      if (existing) {
        await this.request('PUT', `/api/v2/cmdb/webfilter/urlfilter/${previous.urlfilter_id}`, { body: table });
        tableId = previous.urlfilter_id;
      }
    }
    if (tableId === null) {
      const created = await this.request('POST', '/api/v2/cmdb/webfilter/urlfilter', { body: table });
      tableId = Number(created?.mkey);
      if (!Number.isInteger(tableId))
        throw new ConnectorError('unexpected_response', 'FortiOS did not return the new urlfilter id (mkey)');
    }
    const profile = {
      name: compiled.profileName,
      comment: `risk-intel policy ${policy.id} v${policy.version}`,
      'feature-set': 'flow',
      'log-all-url': 'enable',
      web: { 'urlfilter-table': tableId },
      'ftgd-wf': { filters: compiled.filters },
    };
    const existingProfile = await this.request(
      'GET',
      `/api/v2/cmdb/webfilter/profile/${encodeURIComponent(compiled.profileName)}?format=name`,
      { allowNotFound: true },
    );
    if (existingProfile)
      await this.request('PUT', `/api/v2/cmdb/webfilter/profile/${encodeURIComponent(compiled.profileName)}`, {
        body: profile,
      });
    else await this.request('POST', '/api/v2/cmdb/webfilter/profile', { body: profile });
    const current = new Set(compiled.externalResources.map((r) => r.name));
    if (isFortiPushed(previous))
      await this.deleteExternalResources((previous.external_resources ?? []).filter((name) => !current.has(name)));
    return {
      vendor: 'fortinet',
      profile: compiled.profileName,
      urlfilter_id: tableId,
      external_resources: compiled.externalResources.map((r) => r.name),
      policy_version: policy.version,
      warnings: compiled.warnings,
    };
  }

  async removeUrlPolicy(pushed: PushedObjects): Promise<void> {
    if (!isFortiPushed(pushed)) return;
    await this.request('DELETE', `/api/v2/cmdb/webfilter/profile/${encodeURIComponent(pushed.profile)}`, {
      allowNotFound: true,
    });
    await this.request('DELETE', `/api/v2/cmdb/webfilter/urlfilter/${pushed.urlfilter_id}`, { allowNotFound: true });
    await this.deleteExternalResources(pushed.external_resources ?? []);
  }

  /** Shared by every policy on the device (one per severity): one another profile still uses stays (-23). */
  private async deleteExternalResources(names: readonly string[]) {
    for (const name of names) {
      try {
        await this.request('DELETE', `/api/v2/cmdb/system/external-resource/${encodeURIComponent(name)}`, {
          allowNotFound: true,
        });
      } catch (err) {
        if (!(err instanceof ConnectorError && err.message.includes('error -23'))) throw err;
      }
    }
  }
}
