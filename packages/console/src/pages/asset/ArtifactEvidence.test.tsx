// An artifact finding's evidence as the asset page renders it (react-dom/server): the file, its hash, the verdict and
// the analyser's callable, member and offset, text escaped; evidence without a hash renders nothing.
import { renderToStaticMarkup } from 'react-dom/server';
import { ArtifactEvidence } from './ArtifactEvidence';

const SHA = 'ab'.repeat(32);

describe('ArtifactEvidence', () => {
  it('shows the file, its SHA-256, the verdict and where the analyser saw the callable', () => {
    const html = renderToStaticMarkup(
      <ArtifactEvidence
        evidence={{
          path: 'pytorch_model.bin',
          sha256: SHA,
          verdict: 'malicious',
          format: 'pytorch_zip',
          analyser_version: '1.4.0',
          analyser_findings: [
            {
              id: 'pickle.dangerous_callable',
              message: 'Loading calls <os.system>',
              callable: 'posix.system',
              member: 'archive/data.pkl',
              offset: 57,
            },
          ],
        }}
      />,
    );
    expect(html).toContain('<code>pytorch_model.bin</code>');
    expect(html).toContain(`<code class="hash">${SHA}</code>`);
    expect(html).toContain('malicious (pytorch_zip), analyser 1.4.0');
    expect(html).toContain('Loading calls &lt;os.system&gt;');
    expect(html).toContain('calls <code>posix.system</code>');
    expect(html).toContain('in <code>archive/data.pkl</code>');
    expect(html).toContain('at byte 57');
  });

  it('renders nothing for evidence that names no judged file', () => {
    expect(renderToStaticMarkup(<ArtifactEvidence evidence={{ path: 'files', files: ['a.bin'] }} />)).toBe('');
    expect(renderToStaticMarkup(<ArtifactEvidence evidence={{ sha256: 'not-a-hash' }} />)).toBe('');
    expect(renderToStaticMarkup(<ArtifactEvidence evidence={null} />)).toBe('');
  });
});
