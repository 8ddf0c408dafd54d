// `pnpm sim:panos` / `pnpm sim:fortinet`: run a vendor simulator in the foreground so a person can try the
// admin flow against it. PORT and API_KEY may be set in the environment.
import { startFortinetSimulator } from './fortinet-simulator';
import { startPanosSimulator } from './panos-simulator';

async function main(): Promise<void> {
  const vendor = process.argv[2];
  const apiKey = process.env.SIM_API_KEY ?? 'sim-api-key-0001';
  if (vendor === 'panos') {
    const sim = await startPanosSimulator({ port: Number(process.env.SIM_PORT ?? 8443), apiKey });
    console.log(
      `PAN-OS XML API simulator on ${sim.url}/api/ (self-signed TLS; X-PAN-KEY or key=${apiKey}; keygen user admin / password admin)`,
    );
    console.log(
      `Register it: {"name":"pa-sim","type":"palo_alto","host":"127.0.0.1","port":${sim.port},"api_token":"${apiKey}","verify_ssl":false}`,
    );
    process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
    process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
  } else if (vendor === 'fortinet') {
    const sim = await startFortinetSimulator({ port: Number(process.env.SIM_PORT ?? 9443), apiKey });
    console.log(`FortiOS REST API simulator on ${sim.url}/api/v2/ (self-signed TLS; Authorization: Bearer ${apiKey})`);
    console.log(
      `Register it: {"name":"fg-sim","type":"fortinet","host":"127.0.0.1","port":${sim.port},"api_token":"${apiKey}","verify_ssl":false}`,
    );
    process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
    process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
  } else {
    console.error('usage: tsx src/simulators/cli.ts panos|fortinet');
    process.exit(2);
  }
}

void main();
