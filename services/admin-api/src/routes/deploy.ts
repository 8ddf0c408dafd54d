import { ApiError } from '@risk/common/errors';
import { defineRoute } from '@risk/common/http';
import { zQueryText } from '@risk/contracts';
import { EXAMPLE_DEPLOYMENT_CREDENTIALS, z, ZDeploymentCredentials, ZDeploymentCredentialsBody } from '@risk/contracts';
import type { Response } from 'express';
import { bearerOf } from '../auth';
import { noCredential } from '../http/route';
import { exchangeDeploymentToken } from '../domain/deployment-tokens/exchange-deployment-token';

const errorExamples = {
  401: {
    code: 'token_exhausted' as const,
    message: 'This deployment token has been used the maximum number of times.',
  },
};

/** The answer holds a live API key minted for this request: no cache, browser or proxy, may keep it. */
const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

/**
 * What a deployment runs at start: its deployment token for an API key. The token goes in the query (the spec's
 * form), as `Authorization: Bearer`, or in a POST body, which keeps it out of URLs and their logs
 * (docs/security.md "Deployment credentials").
 */
export const deployRoutes = [
  defineRoute({
    method: 'get',
    path: '/deploy/v1/credentials',
    auth: noCredential,
    query: z.object({
      token: zQueryText.optional().openapi({ description: 'the deployment token; or send it as a Bearer token' }),
    }),
    doc: {
      examples: { response: EXAMPLE_DEPLOYMENT_CREDENTIALS, errors: errorExamples },
      summary: 'Exchange a deployment token for an API key',
      description:
        'The token in the query (`?token=dpl_…`) or as `Authorization: Bearer dpl_…`, not both. The answer is `Cache-Control: no-store`. POST the token in a body to keep it out of URLs.',
      response: { description: 'success', schema: ZDeploymentCredentials },
      errors: [400, 401, 403],
    },
    handler: ({ deps, query, req, res }) => {
      const header = bearerOf(req.headers.authorization);
      if (query.token !== undefined && header !== null)
        throw new ApiError('parameter_invalid', {
          param: 'token',
          message: 'Send the deployment token once: in the query or as a Bearer token.',
        });
      const token = query.token ?? header;
      if (!token) throw new ApiError('missing_required_param', { param: 'token', message: 'token is required.' });
      noStore(res);
      return exchangeDeploymentToken(deps, { token });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/deploy/v1/credentials',
    auth: noCredential,
    body: ZDeploymentCredentialsBody,
    doc: {
      examples: {
        request: { token: 'dpl_3QyM1mR8fQ0m2h6xWb9cZt5e' },
        response: EXAMPLE_DEPLOYMENT_CREDENTIALS,
        errors: errorExamples,
      },
      summary: 'Exchange a deployment token for an API key (token in the body)',
      description:
        'As the GET, with the token in a JSON body, so it never appears in a URL. `Cache-Control: no-store`.',
      response: { description: 'success', schema: ZDeploymentCredentials },
      errors: [400, 401, 403],
    },
    handler: ({ deps, body, res }) => {
      noStore(res);
      return exchangeDeploymentToken(deps, body);
    },
  }),
];
