// "Test a URL" (GET /tools/v1/risk-score, docs/admin-api.md): the URL's risk score and severity, the factors
// that make it up, the categories, and the action each of the tenant's assigned policies takes, this one first.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { RiskScore } from '../../api/types';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { SeverityBadge } from '../../components/severity';
import { formatNumber } from '../../lib/format';
import { ScrollArea } from '../../components/scroll-area';

export function UrlTester({ policyId, ruleName }: { policyId: string; ruleName: (id: string) => string }) {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<RiskScore | null>(null);
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      setResult(await unwrap(adminApi.GET('/tools/v1/risk-score', { params: { query: { url: url.trim() } } })));
    });
  };
  const mine = result?.policy_decisions.find((d) => d.policy_id === policyId);
  return (
    <section aria-labelledby="test-url-h" className="card">
      <h2 id="test-url-h">Test a URL</h2>
      <form className="inline-form" onSubmit={onSubmit}>
        <Field label="URL" name="url" error={submit.error}>
          <input
            type="text"
            inputMode="url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <button type="submit" className="primary" disabled={submit.busy || url.trim() === ''}>
          {submit.busy ? 'Testing…' : 'Test'}
        </button>
      </form>
      <FormErrorText error={submit.error} />
      <div aria-live="polite">
        {result ? (
          <div className="url-result" data-testid="url-result">
            <dl className="kv">
              <dt>Normalized URL</dt>
              <dd>{result.normalized_url}</dd>
              <dt>Risk score</dt>
              <dd>
                <strong>{formatNumber(result.risk_score)}</strong> / 100 <SeverityBadge severity={result.severity} />
              </dd>
              <dt>This policy</dt>
              <dd data-testid="policy-action">
                {mine
                  ? `${mine.action} (${mine.rule_id ? `rule “${ruleName(mine.rule_id)}”` : 'default action'}, matched on ${mine.matched_on})`
                  : 'not assigned to a firewall, so it takes no part in the decision'}
              </dd>
              <dt>Overall action</dt>
              <dd>{result.action ?? 'no assigned policy decides'}</dd>
              <dt>Categories</dt>
              <dd>{[...new Set([result.ai_category, ...result.categories].filter(Boolean))].join(', ') || '—'}</dd>
              <dt>Vendor</dt>
              <dd>{result.vendor ?? '—'}</dd>
            </dl>
            <h3>Factors</h3>
            {result.factors.length === 0 ? (
              <p className="muted">No risk factors.</p>
            ) : (
              <ScrollArea label="Risk factors">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Factor</th>
                      <th scope="col" className="num">
                        Points
                      </th>
                      <th scope="col">Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.factors.map((f, i) => (
                      <tr key={`${f.code}-${i}`}>
                        <td>{f.code}</td>
                        <td className="num">{formatNumber(f.points)}</td>
                        <td>{f.evidence}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollArea>
            )}
            {result.policy_decisions.length > 1 ? (
              <>
                <h3>Every assigned policy</h3>
                <ul>
                  {result.policy_decisions.map((d) => (
                    <li key={d.policy_id}>
                      {d.policy_name}: {d.action} (matched on {d.matched_on})
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
