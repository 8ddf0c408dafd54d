export { CliError } from './cli-io';
export { runCli, USAGE } from './commands';
export { ensureLocalSecrets, loadLocalSecrets, LOCAL_SECRETS_FILE } from './local-secrets';
