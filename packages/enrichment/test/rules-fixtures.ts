// Shared helpers of the rule suites (rules-model, rules-provenance, rules-mcp, rules-vulnerable).
import { analyze } from '../src/index';
import { input } from './helpers';

/** The rule ids an analysis of `raw` reports. */
export const ids = (raw: Parameters<typeof input>[0]) => analyze(input(raw)).findings.map((f) => f.rule_id);
/** The findings of one rule in an analysis of `raw`. */
export const find = (raw: Parameters<typeof input>[0], rule: string) =>
  analyze(input(raw)).findings.filter((f) => f.rule_id === rule);
