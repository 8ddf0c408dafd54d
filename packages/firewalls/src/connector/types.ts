// The one interface every vendor connector implements; the admin use cases and the sync use case only see
// this. Each call opens its own HTTPS connection (see https-client.ts) and throws ConnectorError.
// the syslog modes and facilities are defined once, with the request schema that accepts them
import type { SyslogFacility, SyslogMode } from '@risk/contracts';
import type { PolicyModel } from '../policy/policy-model';
import type { FirewallType } from '../registry';

export interface FirewallConnection {
  type: FirewallType;
  host: string;
  port: number;
  verify_ssl: boolean;
  api_token: string;
}

export interface FirewallTestInfo {
  model: string | null;
  version: string | null;
  hostname: string | null;
  serial: string | null;
}

export interface LoggingOptions {
  syslog_server: string;
  syslog_port: number;
  mode: SyslogMode;
  facility: SyslogFacility;
}

export interface LoggingResult {
  /** what the firewall now holds, in the vendor's terms */
  vendor_config: Record<string, unknown>;
}

/**
 * What a push left on the firewall, so a later push or an unassign can clean it up (stored as JSON on the
 * assignment). Each vendor extends it with its own object ids and only reads back records of its own `vendor`.
 */
export interface PushedObjects {
  vendor: FirewallType;
  profile: string;
  policy_version: number;
  warnings: string[];
}

/**
 * The feed credential a device is given to pull the tenant's risk feeds (docs/feeds.md "Feed tokens"): both
 * PAN-OS EDLs and FortiGate external feeds send it as HTTP Basic (user name = token id, password = secret).
 */
export interface FeedCredential {
  username: string;
  password: string;
}

export interface FirewallConnector {
  test(): Promise<FirewallTestInfo>;
  configureLogging(options: LoggingOptions): Promise<LoggingResult>;
  /** `feed`: needed when a rule references the risk feed (min_asset_severity) */
  applyUrlPolicy(
    policy: PolicyModel,
    previous: PushedObjects | null,
    feed?: FeedCredential | null,
  ): Promise<PushedObjects>;
  removeUrlPolicy(pushed: PushedObjects): Promise<void>;
}
