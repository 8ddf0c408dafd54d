// `pnpm sim <firewall type>` (and `pnpm sim:panos` / `pnpm sim:fortinet`): run a vendor simulator in the foreground
// so a person can try the admin flow against it. SIM_PORT and SIM_API_KEY may be set in the environment.
import { FIREWALL_TYPES, vendorOf, type FirewallType } from '../registry';

async function main(): Promise<void> {
  const type = process.argv[2];
  if (!FIREWALL_TYPES.includes(type as FirewallType)) {
    console.error(`usage: tsx src/simulators/cli.ts ${FIREWALL_TYPES.join('|')}`);
    process.exit(2);
  }
  const simulator = vendorOf(type as FirewallType).simulator;
  const apiKey = process.env.SIM_API_KEY ?? 'sim-api-key-0001';
  const sim = await simulator.start({ port: Number(process.env.SIM_PORT ?? simulator.defaultPort), apiKey });
  console.log(simulator.banner(sim.url, apiKey));
  console.log(
    `Register it: {"name":"${simulator.exampleName}","type":"${type}","host":"127.0.0.1","port":${sim.port},"api_token":"${apiKey}","verify_ssl":false}`,
  );
  process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
}

void main();
