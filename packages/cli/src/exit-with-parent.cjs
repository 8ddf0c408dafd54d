// Preloaded into each service by `pnpm start` (node --require). The services run in their own process
// group, so a terminal's Ctrl-C reaches only `start`, which then sends each one a single SIGTERM. If
// `start` dies without doing so (SIGKILL, crash), its IPC channel closes: stop through the service's
// own SIGTERM handler (graceful shutdown) instead of living on as an orphan.
if (process.channel) {
  // the channel must not keep a service alive on its own
  process.channel.unref();
  process.once('disconnect', () => {
    // nobody reads our stdout any more; a write must not crash the shutdown with EPIPE
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    process.kill(process.pid, 'SIGTERM');
  });
}
