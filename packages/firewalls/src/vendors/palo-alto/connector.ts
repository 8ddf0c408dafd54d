// PAN-OS XML API connector (docs/firewalls.md "PAN-OS"): POST form bodies to /api/ with the key in
// X-PAN-KEY; op `show system info` to test; config edit/delete on the vsys1 candidate config, then commit and
// poll `show jobs id` until FIN. Replies are parsed as XML (never string-matched): status, code and the
// message in msg/line, result/msg/line, result/msg or msg. Each reply is capped at what PAN-OS sends for the
// call and parsed off the main thread (docs/firewalls.md "Replies").
import { ConnectorError } from '../../connector/errors';
import { httpsCall, REPLY_CAP_BYTES } from '../../connector/https-client';
import { parseXmlReply } from '../../connector/reply-parser';
import type { VendorConnectorContext } from '../../vendor';
import type {
  FeedCredential,
  FirewallConnection,
  FirewallConnector,
  FirewallTestInfo,
  LoggingOptions,
  LoggingResult,
  PushedObjects,
} from '../../connector/types';
import { path, escapeXml, type XmlNode } from '../../lib/xml-tree';
import { compilePanos, PolicyTranslationError } from './compile';
import type { PolicyModel } from '../../policy/policy-model';

export const PAN_VSYS = "/config/devices/entry[@name='localhost.localdomain']/vsys/entry[@name='vsys1']";
export const PAN_SYSLOG_PROFILE = 'risk-intel-syslog';
export const PAN_LOG_FORWARDING_PROFILE = 'risk-intel-log-forwarding';

const TRANSPORT = { udp: 'UDP', tcp: 'TCP', tls: 'SSL' } as const;

/**
 * `show jobs id`: a finished commit lists its warnings and errors in result/job/details, one line each; on a large
 * configuration they run to a few hundred lines. Every other call we make answers in a few KiB (REPLY_CAP_BYTES).
 */
const JOB_REPLY_CAP_BYTES = 256 * 1024;

function messageOf(root: XmlNode): string {
  const candidates = [
    path(root, 'msg', 'line'),
    path(root, 'result', 'msg', 'line'),
    path(root, 'result', 'msg'),
    path(root, 'msg'),
  ];
  for (const node of candidates) {
    if (!node) continue;
    if (node.text) return node.text;
    const lines = node.children.map((c) => c.text ?? path(c, 'line')?.text).filter(Boolean);
    if (lines.length) return lines.join('; ');
  }
  return '';
}

/** What a PAN-OS push leaves: the profile and the custom URL categories it references. */
export interface PanPushedObjects extends PushedObjects {
  vendor: 'palo_alto';
  custom_categories: string[];
  /** External Dynamic Lists pulling the risk feed (absent in records written before feeds existed) */
  external_lists?: string[];
}

const isPanPushed = (pushed: PushedObjects | null): pushed is PanPushedObjects => pushed?.vendor === 'palo_alto';

export class PaloAltoConnector implements FirewallConnector {
  constructor(
    private readonly connection: FirewallConnection,
    private readonly context: VendorConnectorContext & { maxPolls?: number },
  ) {}

  private async call(params: Record<string, string>, maxReplyBytes = REPLY_CAP_BYTES): Promise<XmlNode> {
    const result = await httpsCall(
      { host: this.connection.host, port: this.connection.port, verifySsl: this.connection.verify_ssl },
      {
        method: 'POST',
        path: '/api/',
        headers: {
          'X-PAN-KEY': this.connection.api_token,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/xml',
        },
        body: new URLSearchParams(params).toString(),
        maxReplyBytes,
      },
      this.context,
    );
    let root: XmlNode | undefined;
    try {
      root = (await parseXmlReply(result.body, 'PAN-OS')).find((n) => n.tag === 'response');
    } catch (err) {
      if (err instanceof ConnectorError) throw err; // over the parse budget
      root = undefined;
    }
    if (!root) {
      throw new ConnectorError(
        'unexpected_response',
        `PAN-OS answered HTTP ${result.status} without an XML <response> (is this a PAN-OS management interface?)`,
      );
    }
    const code = root.attrs.code;
    if (result.status === 403 || code === '403' || code === '16') {
      throw new ConnectorError(
        'auth_rejected',
        `PAN-OS rejected the API key: ${messageOf(root) || 'Invalid Credential'}`,
      );
    }
    if (root.attrs.status !== 'success') {
      throw new ConnectorError(
        'vendor_error',
        `PAN-OS error${code ? ` code ${code}` : ''} (HTTP ${result.status}): ${messageOf(root) || 'no message'}`,
      );
    }
    return root;
  }

  async test(): Promise<FirewallTestInfo> {
    const root = await this.call({ type: 'op', cmd: '<show><system><info></info></system></show>' });
    const system = path(root, 'result', 'system');
    if (!system)
      throw new ConnectorError('unexpected_response', 'PAN-OS reply to show system info has no result/system');
    return {
      model: path(system, 'model')?.text ?? null,
      version: path(system, 'sw-version')?.text ?? null,
      hostname: path(system, 'hostname')?.text ?? null,
      serial: path(system, 'serial')?.text ?? null,
    };
  }

  private async commitAndWait(): Promise<{ job: string | null }> {
    const root = await this.call({ type: 'commit', cmd: '<commit></commit>' });
    const job = path(root, 'result', 'job')?.text;
    if (!job) return { job: null }; // "There are no changes to commit."
    const maxPolls = this.context.maxPolls ?? 120;
    for (let attempt = 0; attempt < maxPolls; attempt++) {
      const reply = await this.call(
        { type: 'op', cmd: `<show><jobs><id>${escapeXml(job)}</id></jobs></show>` },
        JOB_REPLY_CAP_BYTES,
      );
      const jobNode = path(reply, 'result', 'job');
      const status = path(jobNode, 'status')?.text;
      if (status === 'FIN') {
        const result = path(jobNode, 'result')?.text;
        if (result === 'OK') return { job };
        const details = (path(jobNode, 'details')?.children ?? [])
          .map((l) => l.text)
          .filter(Boolean)
          .join('; ');
        throw new ConnectorError(
          'vendor_error',
          `PAN-OS commit job ${job} failed: ${details || result || 'no details'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.context.pollIntervalMs ?? 500));
    }
    throw new ConnectorError('timeout', `PAN-OS commit job ${job} did not finish after ${maxPolls} polls`);
  }

  private edit(xpath: string, element: string) {
    return this.call({ type: 'config', action: 'edit', xpath, element });
  }

  async configureLogging(options: LoggingOptions): Promise<LoggingResult> {
    const serverEntry =
      `<entry name="risk-intel"><server>${escapeXml(options.syslog_server)}</server><transport>${TRANSPORT[options.mode]}</transport>` +
      `<port>${options.syslog_port}</port><format>BSD</format><facility>${options.facility}</facility></entry>`;
    await this.edit(
      `/config/shared/log-settings/syslog/entry[@name='${PAN_SYSLOG_PROFILE}']`,
      `<entry name="${PAN_SYSLOG_PROFILE}"><server>${serverEntry}</server></entry>`,
    );
    await this.edit(
      `${PAN_VSYS}/log-settings/profiles/entry[@name='${PAN_LOG_FORWARDING_PROFILE}']`,
      `<entry name="${PAN_LOG_FORWARDING_PROFILE}"><match-list><entry name="url-syslog"><log-type>url</log-type><filter>All Logs</filter>` +
        `<send-syslog><member>${PAN_SYSLOG_PROFILE}</member></send-syslog></entry></match-list></entry>`,
    );
    const { job } = await this.commitAndWait();
    return {
      vendor_config: {
        syslog_server_profile: PAN_SYSLOG_PROFILE,
        log_forwarding_profile: PAN_LOG_FORWARDING_PROFILE,
        transport: TRANSPORT[options.mode],
        port: options.syslog_port,
        facility: options.facility,
        format: 'BSD',
        commit_job: job,
      },
    };
  }

  /** An EDL of type URL List on our feed, pulled every five minutes (PAN-OS's shortest interval) with Basic auth. */
  private async editExternalList(list: { name: string; url: string; description: string }, feed: FeedCredential) {
    const auth = `<auth><username>${escapeXml(feed.username)}</username><password>${escapeXml(feed.password)}</password></auth>`;
    await this.edit(
      `${PAN_VSYS}/external-list/entry[@name='${list.name}']`,
      `<entry name="${list.name}"><type><url><url>${escapeXml(list.url)}</url>${auth}<recurring><five-minute/></recurring>` +
        `<description>${escapeXml(list.description)}</description></url></type></entry>`,
    );
  }

  async applyUrlPolicy(
    policy: PolicyModel,
    previous: PushedObjects | null,
    feed?: FeedCredential | null,
  ): Promise<PanPushedObjects> {
    let compiled;
    try {
      compiled = compilePanos(policy);
    } catch (err) {
      if (err instanceof PolicyTranslationError) throw new ConnectorError('policy_not_translatable', err.message);
      throw err;
    }
    for (const category of compiled.customCategories) {
      const list = category.members.map((m) => `<member>${escapeXml(m)}</member>`).join('');
      await this.edit(
        `${PAN_VSYS}/profiles/custom-url-category/entry[@name='${category.name}']`,
        `<entry name="${category.name}"><type>URL List</type><list>${list}</list><description>${escapeXml(category.description)}</description></entry>`,
      );
    }
    if (compiled.externalLists.length && !feed)
      throw new ConnectorError(
        'policy_not_translatable',
        'a rule references the risk feed but no feed credential was given',
      );
    for (const list of compiled.externalLists) {
      await this.editExternalList(
        { name: list.name, url: list.url, description: `risk-intel feed, assets ${list.severity} and above` },
        feed!,
      );
    }
    const lists = (['allow', 'alert', 'block'] as const)
      .map(
        (action) =>
          `<${action}>${compiled.profile[action].map((m) => `<member>${escapeXml(m)}</member>`).join('')}</${action}>`,
      )
      .join('');
    await this.edit(
      `${PAN_VSYS}/profiles/url-filtering/entry[@name='${compiled.profileName}']`,
      `<entry name="${compiled.profileName}">${lists}<description>${escapeXml(`risk-intel policy ${policy.id} v${policy.version}`)}</description></entry>`,
    );
    const current = new Set(compiled.customCategories.map((c) => c.name));
    const currentLists = new Set(compiled.externalLists.map((l) => l.name));
    if (isPanPushed(previous)) {
      for (const stale of previous.custom_categories.filter((name) => !current.has(name))) {
        await this.call({
          type: 'config',
          action: 'delete',
          xpath: `${PAN_VSYS}/profiles/custom-url-category/entry[@name='${stale}']`,
        });
      }
      for (const stale of (previous.external_lists ?? []).filter((name) => !currentLists.has(name))) {
        await this.call({
          type: 'config',
          action: 'delete',
          xpath: `${PAN_VSYS}/external-list/entry[@name='${stale}']`,
        });
      }
    }
    await this.commitAndWait();
    // pull the lists now rather than at the next interval (`request system external-list refresh`)
    for (const name of currentLists) {
      await this.call({
        type: 'op',
        cmd: `<request><system><external-list><refresh><type><url><name>${escapeXml(name)}</name></url></type></refresh></external-list></system></request>`,
      });
    }
    return {
      vendor: 'palo_alto',
      profile: compiled.profileName,
      custom_categories: [...current],
      external_lists: [...currentLists],
      policy_version: policy.version,
      warnings: compiled.warnings,
    };
  }

  async removeUrlPolicy(pushed: PushedObjects): Promise<void> {
    if (!isPanPushed(pushed)) return;
    await this.call({
      type: 'config',
      action: 'delete',
      xpath: `${PAN_VSYS}/profiles/url-filtering/entry[@name='${pushed.profile}']`,
    });
    for (const name of pushed.custom_categories) {
      await this.call({
        type: 'config',
        action: 'delete',
        xpath: `${PAN_VSYS}/profiles/custom-url-category/entry[@name='${name}']`,
      });
    }
    for (const name of pushed.external_lists ?? []) {
      await this.call({ type: 'config', action: 'delete', xpath: `${PAN_VSYS}/external-list/entry[@name='${name}']` });
    }
    await this.commitAndWait();
  }
}
