// The policy, assignment and firewall writes the admin API and the worker's tests share.
export {
  insertPolicy,
  appendRule,
  bumpAndResync,
  type PolicyWrite,
  type RuleWrite,
} from './policy-writes';
export { queueAssignments, queueRemoval } from './assignment-writes';
export { insertFirewall, type FirewallWrite } from './firewall-writes';
export { checkAssignmentsBeforeDelete, type LeftOnDevice } from './removal-state';
