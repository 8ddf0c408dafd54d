// A time shown relative ("5 minutes ago") with the absolute time on hover and for screen readers (<time dateTime>).
import { formatAbsolute, formatRelative } from '../lib/format';

export function RelativeTime({ value }: { value: number | string | null | undefined }) {
  if (value === null || value === undefined) return <span>—</span>;
  const absolute = formatAbsolute(value);
  return (
    <time dateTime={absolute} title={absolute}>
      {formatRelative(value)}
    </time>
  );
}
