// Toxic combinations: two capabilities judged one by one elsewhere give an attacker a path together
// (docs/enrichment.md R29). Evaluated after the rules it reads (registry order).
import type { FindingDraft } from '../types';
import { R17, R19 } from './capabilities';
import { R20 } from './credentials';
import { defineRule, type Emission, type RuleContext, type RuleDefinition } from './define';
import { R13 } from './provenance';
import { R05 } from './serialization';

/** The most confident scored finding of a rule with a capability, or null. */
function strongest(ctx: RuleContext, rule: RuleDefinition, capability?: string): FindingDraft | null {
  let best: FindingDraft | null = null;
  for (const f of ctx.findings) {
    if (f.rule_id !== rule.id || f.severity === 'informational') continue;
    if (capability && !f.capabilities.includes(capability)) continue;
    if (!best || f.confidence > best.confidence) best = f;
  }
  return best;
}

/** A combination finding: as confident as its weaker half. */
function pair(
  a: FindingDraft,
  b: FindingDraft,
  o: { severity: Emission['severity']; title: string; description: string },
): Emission {
  return {
    ...o,
    confidence: Math.min(a.confidence, b.confidence),
    description: o.description,
    evidence: {
      path: 'findings',
      combines: [
        { rule_id: a.rule_id, title: a.title },
        { rule_id: b.rule_id, title: b.title },
      ],
    },
    capabilities: [...new Set([...a.capabilities, ...b.capabilities])],
  };
}

export const R29 = defineRule({
  id: 'R29',
  title: 'Toxic capability combination',
  severity: 'high',
  weight: 35,
  category: 'capability',
  rationale:
    'Untrusted input (fetched pages, web content) reaching a shell is prompt injection turned into code execution; credentials next to a way to send data out are an exfiltration path; an uncensored model that runs repository code at load has neither a safety layer nor a code boundary.',
  remediation:
    'Split the capabilities across separate servers or agents, require confirmation for the dangerous one, or remove one of them.',
  attack_techniques: ['AML.T0051', 'AML.T0086'],
  references: ['toxic combinations from the corpus calibration (untrusted input + shell; secrets + egress)'],
  evaluate(ctx) {
    const out: Emission[] = [];
    const shell = strongest(ctx, R17, 'shell_exec');
    const input = strongest(ctx, R19, 'network_egress') ?? strongest(ctx, R19, 'browser');
    if (shell && input)
      out.push(
        pair(input, shell, {
          severity: 'high',
          title: 'Untrusted input reaches a shell',
          description: `Content fetched from the web (${input.title}) can steer a tool that runs commands (${shell.title}).`,
        }),
      );
    const secrets = strongest(ctx, R20);
    if (secrets && input)
      out.push(
        pair(secrets, input, {
          // flagged, not escalated: the two findings already score; a reviewer rated one of the two corpus extensions
          // with this pair (cookies + every site) high and the other medium (docs/enrichment.md R29)
          severity: 'medium',
          title: 'Credentials next to network egress',
          description: `Credentials (${secrets.title}) are reachable by a capability that sends data out (${input.title}).`,
        }),
      );
    const guardrails = strongest(ctx, R13);
    const remote = strongest(ctx, R05);
    if (guardrails && remote)
      out.push(
        pair(guardrails, remote, {
          severity: 'high',
          title: 'Uncensored model that runs repository code',
          description: `Safety alignment removed (${guardrails.title}) and repository Python runs at load (${remote.title}).`,
        }),
      );
    return out;
  },
});
