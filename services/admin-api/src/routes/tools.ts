import { defineRoute } from '@risk/common/http';
import { zQueryText } from '@risk/contracts';
import { EXAMPLE_RISK_SCORE, z, ZRiskScore } from '@risk/contracts';
import { tenantToken } from '../http/route';
import { riskScoreForTenant } from '../domain/risk-score/risk-score-for-tenant';

/** Tools (tenant token). */
export const toolRoutes = [
  defineRoute({
    method: 'get',
    path: '/tools/v1/risk-score',
    auth: tenantToken,
    query: z.object({ url: zQueryText }),
    doc: {
      examples: { response: EXAMPLE_RISK_SCORE },
      summary: 'URL risk score and the action of assigned policies',
      response: { description: 'success', schema: ZRiskScore },
      errors: [400],
    },
    handler: ({ deps, auth, query }) => riskScoreForTenant(deps, { tenantId: auth.tenantId, url: query.url }),
  }),
];
