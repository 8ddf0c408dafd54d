import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_CONFIGURE_LOGGING,
  EXAMPLE_CREATE_FIREWALL,
  EXAMPLE_FIREWALL,
  EXAMPLE_FIREWALL_TEST,
  EXAMPLE_LOGGING_RESULT,
  exampleAdminList,
  z,
  ZConfigureLoggingBody,
  ZCreateFirewallBody,
  ZDeleted,
  ZFirewall,
  ZFirewallTestResult,
  ZForceDeleteQuery,
  zList,
  ZListQuery,
  ZLoggingResult,
  zPathId,
  ZUpdateFirewallBody,
} from '@risk/contracts';
import { tenantToken } from '../http/route';
import { configureVendorLogging } from '../domain/firewalls/configure-vendor-logging';
import { createFirewall } from '../domain/firewalls/create-firewall';
import { deleteFirewall } from '../domain/firewalls/delete-firewall';
import { getFirewall } from '../domain/firewalls/get-firewall';
import { listFirewalls } from '../domain/firewalls/list-firewalls';
import { testFirewall } from '../domain/firewalls/test-firewall';
import { updateFirewall } from '../domain/firewalls/update-firewall';

const ZFirewallParams = z.object({ id: zPathId });

/** A tenant's firewalls (tenant token). */
export const firewallRoutes = [
  defineRoute({
    method: 'post',
    path: '/firewalls/v1',
    auth: tenantToken,
    body: ZCreateFirewallBody,
    status: 201,
    doc: {
      examples: {
        request: EXAMPLE_CREATE_FIREWALL,
        response: {
          ...EXAMPLE_FIREWALL,
          status: 'unknown',
          model: null,
          version: null,
          last_test: null,
          updated: EXAMPLE_FIREWALL.created,
        },
      },
      summary: 'Register a firewall',
      response: { description: 'success', schema: ZFirewall },
      errors: [400, 409],
    },
    handler: ({ deps, auth, body }) => createFirewall(deps, { tenantId: auth.tenantId, firewall: body }),
  }),
  defineRoute({
    method: 'get',
    path: '/firewalls/v1',
    auth: tenantToken,
    query: ZListQuery,
    doc: {
      examples: { response: exampleAdminList('/firewalls/v1', [EXAMPLE_FIREWALL]) },
      summary: 'List firewalls',
      response: { description: 'success', schema: zList(ZFirewall, 'FirewallList') },
      errors: [400],
    },
    handler: ({ deps, auth, query }) => listFirewalls(deps, { tenantId: auth.tenantId, page: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/firewalls/v1/:id',
    auth: tenantToken,
    params: ZFirewallParams,
    doc: {
      examples: { response: EXAMPLE_FIREWALL },
      summary: 'Retrieve a firewall',
      response: { description: 'success', schema: ZFirewall },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getFirewall(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'put',
    path: '/firewalls/v1/:id',
    auth: tenantToken,
    params: ZFirewallParams,
    body: ZUpdateFirewallBody,
    doc: {
      examples: {
        request: { name: 'edge-fra-1 (primary)' },
        response: { ...EXAMPLE_FIREWALL, name: 'edge-fra-1 (primary)' },
      },
      summary: 'Update a firewall (partial)',
      response: { description: 'success', schema: ZFirewall },
      errors: [400, 404, 409],
    },
    handler: ({ deps, auth, params, body }) =>
      updateFirewall(deps, { tenantId: auth.tenantId, id: params.id, changes: body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/firewalls/v1/:id',
    auth: tenantToken,
    params: ZFirewallParams,
    query: ZForceDeleteQuery,
    doc: {
      examples: {
        response: { id: EXAMPLE_FIREWALL.id, object: 'firewall', deleted: true },
        errors: {
          409: {
            code: 'policy_assigned',
            message: 'This firewall still has URL-filter policies assigned; unassign them first.',
          },
        },
      },
      summary: 'Delete a firewall without assigned policies',
      response: { description: 'success', schema: ZDeleted },
      errors: [404, 409],
    },
    handler: ({ deps, auth, params, query }) =>
      deleteFirewall(deps, { tenantId: auth.tenantId, id: params.id, force: query.force === 'true' }),
  }),
  defineRoute({
    method: 'post',
    path: '/firewalls/v1/:id/test',
    auth: tenantToken,
    params: ZFirewallParams,
    doc: {
      examples: { response: EXAMPLE_FIREWALL_TEST },
      summary: 'Test the connection (vendor status call)',
      response: { description: 'success', schema: ZFirewallTestResult },
      errors: [404, 429],
    },
    handler: ({ deps, auth, params }) => testFirewall(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/firewalls/v1/:id/configure-vendor-logging',
    auth: tenantToken,
    params: ZFirewallParams,
    body: ZConfigureLoggingBody,
    doc: {
      examples: { request: EXAMPLE_CONFIGURE_LOGGING, response: EXAMPLE_LOGGING_RESULT },
      summary: 'Push a syslog server profile to the firewall',
      response: { description: 'success', schema: ZLoggingResult },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      configureVendorLogging(deps, { tenantId: auth.tenantId, id: params.id, options: body }),
  }),
];
