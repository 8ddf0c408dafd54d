// The raw-SQL toolkit (docs/data-access.md): literals for EXECUTE text, prepared-once statements.
export { literal } from './literal';
export { PreparedStatements, withPrepared, GENERIC_PLAN_SETTINGS } from './prepared';
