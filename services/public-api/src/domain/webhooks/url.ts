import { ApiError } from '@risk/common/errors';
import { type OutboundGuard } from '@risk/common/outbound';

/**
 * A webhook URL must be absolute http(s) without credentials; https in live mode; and its host
 * must resolve only to public addresses unless OUTBOUND_ALLOWED_HOSTS_WEBHOOK lists it (400 url_not_allowed,
 * param url). The worker checks again at delivery time, against the address it connects to.
 */
export async function assertWebhookUrl(guard: OutboundGuard, raw: string, livemode: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('parameter_invalid', { param: 'url', message: 'url must be an absolute http(s) URL.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('parameter_invalid', { param: 'url', message: 'url must use https (or http in test mode).' });
  }
  if (livemode && url.protocol !== 'https:') {
    throw new ApiError('parameter_invalid', { param: 'url', message: 'Live-mode webhook endpoints must use https.' });
  }
  if (url.username || url.password) {
    throw new ApiError('parameter_invalid', { param: 'url', message: 'url must not contain credentials.' });
  }
  await guard.resolve(url.hostname, 'webhook', 'url');
  return url.toString();
}
