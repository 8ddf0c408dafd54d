// The public API's key scopes (docs/guides/auth-and-scopes.md "Scopes") as the Keys page offers them, checked
// against the generated CreateApiKeyBody type so a scope added to the API shows up as a type error here.
import type { CreateApiKeyBody } from '../api/types';

export type Scope = CreateApiKeyBody['scopes'][number];
const SCOPES: Record<Scope, string> = {
  'signals:write': 'submit signals',
  'signals:read': 'read signals',
  'assets:read': 'read assets, findings, AI-BOMs and history',
  'threats:read': 'read threats',
  'threats:write': 'create and update threats',
  'webhooks:write': 'manage webhook endpoints',
  'assets:triage': 'triage findings, suppressions and severity overrides',
  'artifacts:write': 'upload model files to be scanned',
  'artifacts:read': 'read artifact verdicts by SHA-256',
};
export const SCOPE_LIST = Object.keys(SCOPES) as Scope[];
export const describeScope = (s: Scope): string => SCOPES[s];
