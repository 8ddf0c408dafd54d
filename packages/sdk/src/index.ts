// @risk/sdk: typed clients for the public API (/v1) and the admin API, generated from their OpenAPI documents
// (`pnpm --filter @risk/sdk generate`), with auto-pagination, idempotent retries, typed errors and webhook
// verification.
export {
  createAdminClient,
  createPublicClient,
  type AdminClientOptions,
  type AdminPaths,
  type ClientOptions,
  type PublicClientOptions,
  type PublicPaths,
  type ResponseData,
  type RiskClient,
} from './client';
export {
  ApiServerError,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RiskApiError,
  RiskConnectionError,
  RiskError,
  type RiskErrorType,
} from './errors';
export { uploadArtifact, type Artifact } from './artifacts';
export type { ListItem, ListPath } from './pagination';
export type { RetryInfo, RetryOptions } from './retry';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
} from './webhooks';
export type { components as PublicComponents } from './generated/public-api';
export type { components as AdminComponents } from './generated/admin-api';
