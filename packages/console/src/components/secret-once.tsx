// A secret the API shows once (a webhook signing secret, a deployment token, an API key): shown as text with a
// Copy button, and a warning that it cannot be shown again. It lives in component state only and is gone when
// the user dismisses it or leaves the page (docs/console-pages.md "Secrets").
import { useState } from 'react';

export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>('');
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopied('Copied to the clipboard.'),
      () => setCopied('Copy failed: select the text and copy it by hand.'),
    );
  };
  return (
    <section className="secret-once" role="region" aria-label={label}>
      <h2>{label}</h2>
      <p>Copy it now: it is shown only once and cannot be retrieved again.</p>
      <p>
        <code className="secret" data-testid="secret">
          {secret}
        </code>
      </p>
      <p className="actions">
        <button type="button" className="primary" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
        <span role="status" aria-live="polite">
          {copied}
        </span>
      </p>
    </section>
  );
}
