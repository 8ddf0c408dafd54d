export { startPanosSimulator, type PanosSimulatorState } from './panos-simulator';
export { startFortinetSimulator, type FortinetSimulatorState } from './fortinet-simulator';
export type { SimulatorHandle } from './tls';
