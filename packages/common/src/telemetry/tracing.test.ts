import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { tracingEndpoint } from './tracing';

// docs/observability.md "Tracing": off by default, and off means no OpenTelemetry module is loaded at all.
describe('tracing configuration', () => {
  test('the endpoint comes from the OTLP variables; OTEL_TRACES_EXPORTER=none turns it off', () => {
    expect(tracingEndpoint({})).toBeUndefined();
    expect(tracingEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracingEndpoint({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp/v1/traces',
      }),
    ).toBe('https://traces.example.com/otlp/v1/traces');
    expect(
      tracingEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBe(undefined);
  });

  // a fresh process: jest's module registry is not the one a service runs with
  const loaded = (env: Record<string, string>) =>
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const c = require('./src/observability.ts');
         const h = c.startTracing({ serviceName: 't' });
         // a traced enqueue and span are plain calls when off
         c.withSpan('x', {}, async () => 1).then(async (v) => {
           const mods = Object.keys(require.cache).filter((k) => k.includes('@opentelemetry/sdk-trace'));
           console.log(JSON.stringify({ enabled: h.enabled, v, sdk: mods.length > 0 }));
           await h.shutdown();
           process.exit(0);
         });`,
      ],
      {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
        encoding: 'utf8',
      },
    );

  test('off by default: no OpenTelemetry SDK module is loaded, helpers just call through', () => {
    expect(JSON.parse(loaded({}).trim().split('\n').pop()!)).toEqual({ enabled: false, v: 1, sdk: false });
  });

  test('on with an endpoint: the SDK is loaded', () => {
    const out = loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toMatchObject({ enabled: true, v: 1, sdk: true });
  });
});
