export { startPanosSimulator, type PanosSimulatorState, type SimulatorHandle } from './panos-simulator';
export { startFortinetSimulator, type FortinetSimulatorState } from './fortinet-simulator';
