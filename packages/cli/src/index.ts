export { runCli, CliError, USAGE } from './commands';
export { ensureLocalSecrets, loadLocalSecrets, LOCAL_SECRETS_FILE } from './local-secrets';
