import { defineRoute } from '@risk/common';
import {
  z,
  zList,
  ZConfigureLoggingBody,
  ZCreateFirewallBody,
  ZDeleted,
  ZForceDeleteQuery,
  ZFirewall,
  ZFirewallTestResult,
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
    doc: { summary: 'Retrieve a firewall', response: { description: 'success', schema: ZFirewall }, errors: [404] },
    handler: ({ deps, auth, params }) => getFirewall(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'put',
    path: '/firewalls/v1/:id',
    auth: tenantToken,
    params: ZFirewallParams,
    body: ZUpdateFirewallBody,
    doc: {
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
      summary: 'Test the connection (vendor status call)',
      response: { description: 'success', schema: ZFirewallTestResult },
      errors: [404],
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
      summary: 'Push a syslog server profile to the firewall',
      response: { description: 'success', schema: ZLoggingResult },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      configureVendorLogging(deps, { tenantId: auth.tenantId, id: params.id, options: body }),
  }),
];
