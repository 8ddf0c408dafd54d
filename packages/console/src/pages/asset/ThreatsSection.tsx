// Threat intelligence that matches this asset (GET …/threats).
import { publicApi, unwrap } from '../../api/client';
import { useAsync } from '../../app/use-async';
import { SeverityBadge } from '../../components/severity';
import { Async, Empty } from '../../components/states';
import { RelativeTime } from '../../components/time';

export function ThreatsSection({ fingerprint }: { fingerprint: string }) {
  const threats = useAsync(
    () => unwrap(publicApi.GET('/v1/assets/{fingerprint}/threats', { params: { path: { fingerprint } } })),
    fingerprint,
  );
  return (
    <section aria-labelledby="threats-title">
      <h2 id="threats-title">Matching threats</h2>
      <Async state={threats}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No threat intelligence matches this asset.</Empty>
          ) : (
            <ul>
              {page.data.map((t) => (
                <li key={t.id}>
                  <SeverityBadge severity={t.severity} /> {t.title} <RelativeTime value={t.created} />
                </li>
              ))}
            </ul>
          )
        }
      </Async>
    </section>
  );
}
