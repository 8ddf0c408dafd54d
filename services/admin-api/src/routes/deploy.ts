import { defineRoute, zQueryText } from '@risk/common';
import { EXAMPLE_DEPLOYMENT_CREDENTIALS, z, ZDeploymentCredentials } from '@risk/contracts';
import { noCredential } from '../http/route';
import { exchangeDeploymentToken } from '../domain/deployment-tokens/exchange-deployment-token';

/** What a deployment runs at start: its deployment token (the credential, in the query) for an API key. */
export const deployRoutes = [
  defineRoute({
    method: 'get',
    path: '/deploy/v1/credentials',
    auth: noCredential,
    query: z.object({ token: zQueryText }),
    doc: {
      examples: {
        response: EXAMPLE_DEPLOYMENT_CREDENTIALS,
        errors: {
          401: { code: 'token_exhausted', message: 'This deployment token has been used the maximum number of times.' },
        },
      },
      summary: 'Exchange a deployment token for an API key',
      response: { description: 'success', schema: ZDeploymentCredentials },
      errors: [400, 401, 403],
    },
    handler: ({ deps, query }) => exchangeDeploymentToken(deps, query),
  }),
];
