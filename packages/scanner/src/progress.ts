// The progress bar on stderr (docs/scanner.md): only on a terminal, and only once a scan has run for a moment, so short
// scans and pipes stay clean.
import cliProgress from 'cli-progress';

const DELAY_MS = 750;

export function startProgress(stream: NodeJS.WriteStream): {
  update: (p: { files: number; bytes: number; current: string }) => void;
  stop: () => void;
} {
  const started = Date.now();
  let bar: cliProgress.SingleBar | null = null;
  return {
    update(p) {
      if (!bar) {
        if (Date.now() - started < DELAY_MS) return;
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: 'scanning {value} files | {mb} MiB | {current}',
            clearOnComplete: true,
            hideCursor: true,
            fps: 5,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(0, p.files, { mb: 0, current: '' });
      }
      bar.update(p.files, { mb: Math.round(p.bytes / 1024 ** 2), current: p.current.slice(-40) });
    },
    stop() {
      bar?.stop();
    },
  };
}
