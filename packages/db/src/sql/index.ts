// The raw-SQL toolkit (docs/data-access.md): literals for EXECUTE text, prepared-once statements.
export { literal, assertNoNul } from './literal';
export { PreparedStatements, withPrepared, isConnectionBroken, GENERIC_PLAN_SETTINGS } from './prepared';
export type { StatementDef, PreparedSession } from './prepared';
