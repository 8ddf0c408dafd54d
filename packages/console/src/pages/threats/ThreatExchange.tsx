// STIX 2.1 exchange (docs/threats.md "STIX exchange"): import a bundle from a file or pasted text and show the
// per-object report (imported / merged / skipped with the reason); export the filtered threats as a bundle file.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { publicApi, unwrap } from '../../api/client';
import type { Threat, ThreatImport } from '../../api/types';
import { Link } from '../../app/router';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { downloadBlob } from '../../lib/download';
import { formatNumber } from '../../lib/format';
import { ScrollArea } from '../../components/scroll-area';

/** the largest bundle the page reads (the API's own body limit applies after) */
const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;

export function ImportThreats({ onImported }: { onImported: () => void }) {
  const [text, setText] = useState('');
  const [report, setReport] = useState<ThreatImport | null>(null);
  const submit = useSubmit();
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_BUNDLE_BYTES)
      return void submit.run(() => Promise.reject(new Error('The file is larger than 5 MB.')));
    void file.text().then(setText);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      let bundle: unknown;
      try {
        bundle = JSON.parse(text);
      } catch {
        throw new Error('This is not JSON: paste or choose a STIX 2.1 bundle.');
      }
      // the API validates the bundle (shape, size, nesting) and answers per object
      setReport(await unwrap(publicApi.POST('/v1/threats/import', { body: bundle as never })));
      onImported();
    });
  };
  return (
    <section aria-labelledby="import-h" className="card">
      <h2 id="import-h">Import a STIX 2.1 bundle</h2>
      <form className="form" onSubmit={onSubmit}>
        <Field label="Bundle file" name="file" error={null}>
          <input type="file" accept=".json,application/json,application/stix+json" onChange={onFile} />
        </Field>
        <Field label="or paste the bundle" name="objects" error={submit.error}>
          <textarea value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
        </Field>
        <FormErrorText error={submit.error} />
        <button type="submit" className="primary" disabled={submit.busy || text.trim() === ''}>
          {submit.busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      <div aria-live="polite">{report ? <ImportReport report={report} /> : null}</div>
    </section>
  );
}

function ImportReport({ report }: { report: ThreatImport }) {
  const s = report.summary;
  return (
    <div data-testid="import-report">
      <p>
        <strong>
          {formatNumber(s.imported)} imported, {formatNumber(s.merged)} merged, {formatNumber(s.skipped)} skipped
        </strong>{' '}
        from bundle <code>{report.bundle_id}</code>.
      </p>
      <ScrollArea label="Result per STIX object">
        <table>
          <caption className="visually-hidden">Result per STIX object</caption>
          <thead>
            <tr>
              <th scope="col">STIX object</th>
              <th scope="col">Type</th>
              <th scope="col">Result</th>
              <th scope="col">Message</th>
              <th scope="col">Threats</th>
            </tr>
          </thead>
          <tbody>
            {report.results.map((r) => (
              <tr key={r.stix_id}>
                <td>
                  <code>{r.stix_id}</code>
                </td>
                <td>{r.type}</td>
                <td className={`report-${r.status}`}>
                  {r.status}
                  {r.reason ? ` (${r.reason})` : ''}
                  {r.changed ? '' : r.status === 'skipped' ? '' : ', unchanged'}
                </td>
                <td>{r.message}</td>
                <td>
                  {r.threat_ids.map((id) => (
                    <Link key={id} to={`/threats/${encodeURIComponent(id)}`}>
                      {id}{' '}
                    </Link>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
    </div>
  );
}

export function ExportThreats({
  filters,
}: {
  filters: { category?: Threat['category']; severity?: Threat['severity'] };
}) {
  const submit = useSubmit();
  const exportAll = () =>
    void submit.run(async () => {
      const query = {
        ...(filters.category ? { category: filters.category } : {}),
        ...(filters.severity ? { severity: filters.severity } : {}),
      };
      const blob = await unwrap(publicApi.GET('/v1/threats/export', { params: { query }, parseAs: 'blob' }));
      downloadBlob(blob, 'threats.stix.json');
    });
  return (
    <section aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <p className="muted">
        Downloads up to 500 threats matching the category and severity filters as a STIX 2.1 bundle (the asset type
        filter does not apply to exports).
      </p>
      <button type="button" onClick={exportAll} disabled={submit.busy}>
        {submit.busy ? 'Exporting…' : 'Export as STIX'}
      </button>
      <FormErrorText error={submit.error} />
    </section>
  );
}
