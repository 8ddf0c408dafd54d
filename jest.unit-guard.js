// The unit selection's promise (jest.suites.js): a unit test needs neither Postgres, Redis nor a child process,
// so the fast gate runs on a machine with none of them. This setup file makes each of those fail loudly inside
// a unit test instead of letting it slip into the fast gate and slow it down (CONTRIBUTING.md "Tests").
const net = require('node:net');
const childProcess = require('node:child_process');

const SERVICE_PORTS = new Map([
  [5432, 'Postgres'],
  [6379, 'Redis'],
]);

function refuse(what) {
  throw new Error(
    `${what} in a unit test: move this file out of the unit selection in jest.suites.js (it is an integration test)`,
  );
}

if (!net.Socket.prototype.__unitGuard) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    // net.connect() hands the socket its normalised arguments as one array
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const port = Number(typeof first === 'object' && first !== null ? first.port : first);
    if (SERVICE_PORTS.has(port)) refuse(`a connection to ${SERVICE_PORTS.get(port)} (port ${port})`);
    return connect.apply(this, args);
  };
  net.Socket.prototype.__unitGuard = true;
  for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync']) {
    childProcess[name] = () => refuse(`child_process.${name}`);
  }
}
