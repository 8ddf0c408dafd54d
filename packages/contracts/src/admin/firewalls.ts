// Firewall contracts: registration, connection test, vendor logging (docs/admin-api.md).
import { z } from '../zod';
import { FIREWALL_TYPE_VALUES } from './firewall-types';
import { isoDate } from './shared';

export * from './firewall-types';
const zHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    // the IPv6 alternative was `[0-9a-fA-F:]+:[0-9a-fA-F:.]*` (which `:` ends the first run was ambiguous: quadratic);
    // this is the same language with one way to match it: a first character, then a `:` before any `.`
    /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:][0-9a-fA-F]*:[0-9a-fA-F:]*(?:\.[0-9a-fA-F:.]*)?|[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?)$/,
    'must be a host name or an IP address',
  );

export const ZCreateFirewallBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    type: z.enum(FIREWALL_TYPE_VALUES),
    host: zHost,
    port: z.number().int().min(1).max(65535).default(443),
    api_token: z.string().min(1).max(4096),
    verify_ssl: z.boolean().default(true),
  })
  .openapi('CreateFirewallBody');

export const ZUpdateFirewallBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    type: z.enum(FIREWALL_TYPE_VALUES).optional(),
    host: zHost.optional(),
    port: z.number().int().min(1).max(65535).optional(),
    api_token: z.string().min(1).max(4096).optional(),
    verify_ssl: z.boolean().optional(),
  })
  .openapi('UpdateFirewallBody', {
    description:
      'Changing type, host, port or verify_ssl needs api_token in the same request (400 missing_required_param, param api_token): a stored token is never sent to a connection it was not given for.',
  });

export const ZFirewallTestResult = z
  .object({
    object: z.literal('firewall_test'),
    firewall_id: z.string(),
    ok: z.boolean(),
    status: z.enum(['connected', 'error']),
    latency_ms: z.number().int(),
    model: z.string().nullable(),
    version: z.string().nullable(),
    hostname: z.string().nullable(),
    serial: z.string().nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    tested_at: isoDate,
  })
  .openapi('FirewallTestResult');

export const ZFirewall = z
  .object({
    object: z.literal('firewall'),
    id: z.string(),
    name: z.string(),
    type: z.enum(FIREWALL_TYPE_VALUES),
    host: z.string(),
    port: z.number().int(),
    verify_ssl: z.boolean(),
    api_token_last4: z.string(),
    status: z.enum(['unknown', 'connected', 'error']),
    model: z.string().nullable(),
    version: z.string().nullable(),
    last_test: z
      .object({
        ok: z.boolean().nullable(),
        at: isoDate.nullable(),
        latency_ms: z.number().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    logging: z
      .object({
        status: z.string().nullable(),
        config: z.unknown(),
        error: z.string().nullable(),
        updated_at: isoDate.nullable(),
      })
      .nullable(),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('Firewall');

/** Syslog transports and facilities a firewall's log forwarding can use (the connectors map them per vendor). */
export const SYSLOG_MODES = ['udp', 'tcp', 'tls'] as const;
export type SyslogMode = (typeof SYSLOG_MODES)[number];
export const SYSLOG_FACILITIES = [
  'LOG_USER',
  'LOG_LOCAL0',
  'LOG_LOCAL1',
  'LOG_LOCAL2',
  'LOG_LOCAL3',
  'LOG_LOCAL4',
  'LOG_LOCAL5',
  'LOG_LOCAL6',
  'LOG_LOCAL7',
] as const;
export type SyslogFacility = (typeof SYSLOG_FACILITIES)[number];

export const ZConfigureLoggingBody = z
  .strictObject({
    syslog_server: zHost.refine((v) => v.length <= 63, 'must be at most 63 characters'),
    syslog_port: z.number().int().min(1).max(65535).default(514),
    mode: z.enum(SYSLOG_MODES).default('udp'),
    facility: z.enum(SYSLOG_FACILITIES).default('LOG_USER'),
  })
  .openapi('ConfigureLoggingBody');

export const ZLoggingResult = z
  .object({
    object: z.literal('firewall_logging'),
    firewall_id: z.string(),
    ok: z.boolean(),
    config: z.object({ syslog_server: z.string(), syslog_port: z.number(), mode: z.string(), facility: z.string() }),
    vendor_config: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    updated_at: isoDate,
  })
  .openapi('FirewallLoggingResult');
