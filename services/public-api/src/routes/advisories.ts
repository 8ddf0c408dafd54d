import { ApiError } from '@risk/common/errors';
import { defineRoute } from '@risk/common/http';
import {
  ZAdvisory,
  ZAdvisoryParams,
  ZAttackTechnique,
  ZAttackTechniqueList,
  ZAttackTechniqueParams,
  ZListAttackTechniquesQuery,
  EXAMPLE_ADVISORY,
  EXAMPLE_ATTACK_TECHNIQUE,
  EXAMPLE_ATTACK_TECHNIQUE_LIST,
} from '@risk/contracts';
import { getAdvisory } from '../domain/advisories/get-advisory';
import { getAttackTechnique, listAttackTechniques } from '../domain/attack-techniques/list-attack-techniques';
import { readAssets } from './asset-params';

// Reference data findings cite (docs/advisories.md "API"): advisories by id or alias and the MITRE ATLAS release.
// Public knowledge, the same for every org and mode; read with the scope that reads findings.

export const advisoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/advisories/:advisory_id',
    auth: readAssets,
    params: ZAdvisoryParams,
    doc: {
      examples: { response: EXAMPLE_ADVISORY },
      summary: 'Retrieve an advisory by its id or an alias (scope assets:read)',
      description:
        'An OSV record from the loaded feeds (docs/advisories.md): by its own id, or by an alias such as the CVE, GHSA or ' +
        'PYSEC id a finding cites (its evidence.references link here). Withdrawn advisories are returned with `withdrawn` set.',
      response: { description: 'the advisory', schema: ZAdvisory },
      errors: [404],
    },
    handler: async ({ deps, params }) => {
      const advisory = await getAdvisory(deps, { id: params.advisory_id });
      if (!advisory)
        throw new ApiError('resource_missing', {
          param: 'advisory_id',
          message: `No such advisory: '${params.advisory_id}'.`,
        });
      return advisory;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attack-techniques',
    auth: readAssets,
    query: ZListAttackTechniquesQuery,
    doc: {
      examples: { response: EXAMPLE_ATTACK_TECHNIQUE_LIST },
      summary: 'List the MITRE ATLAS techniques, with their tactics (scope assets:read)',
      description:
        'Every technique and sub-technique of the ATLAS release the engine ships, complete in one response (has_more is ' +
        'always false; docs/advisories.md "MITRE ATLAS"), plus every tactic. `tactic` filters by tactic id.',
      response: { description: 'every technique (a complete list envelope)', schema: ZAttackTechniqueList },
    },
    handler: ({ query }) => listAttackTechniques({ tactic: query.tactic }),
  }),
  defineRoute({
    method: 'get',
    path: '/attack-techniques/:technique_id',
    auth: readAssets,
    params: ZAttackTechniqueParams,
    doc: {
      examples: { response: EXAMPLE_ATTACK_TECHNIQUE },
      summary: 'Retrieve a MITRE ATLAS technique (scope assets:read)',
      response: { description: 'the technique with its tactics and URL', schema: ZAttackTechnique },
      errors: [404],
    },
    handler: ({ params }) => {
      const technique = getAttackTechnique({ id: params.technique_id });
      if (!technique)
        throw new ApiError('resource_missing', {
          param: 'technique_id',
          message: `No such ATLAS technique: '${params.technique_id}'.`,
        });
      return technique;
    },
  }),
];
