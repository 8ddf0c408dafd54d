// An event's payload is keyed by its type (docs/webhooks.md "Event catalogue"). The `@ts-expect-error` lines are
// the test: `pnpm typecheck` fails when a wrong payload compiles (the directive is then unused); the jest part
// checks that the payloads the types accept are the ones the catalogue's schemas parse.
import {
  EXAMPLE_ASSET_ENRICHED_OBJECT,
  EXAMPLE_THREAT,
  WEBHOOK_EVENTS,
  type EventExtra,
  type EventTypeName,
} from '@risk/contracts';
import type { NewEvent } from './events';

const asset = EXAMPLE_ASSET_ENRICHED_OBJECT;
const { previous_attributes, summary } = WEBHOOK_EVENTS['asset.risk_changed'].example.data;
const extra: EventExtra<'asset.risk_changed'> = { previous_attributes, summary };
const textScore = { ...asset, intrinsic_risk_score: '62' };

const accepted: NewEvent[] = [
  { type: 'asset.risk_changed', livemode: true, fingerprint: asset.fingerprint, object: asset, extra },
  { type: 'asset.enriched', livemode: true, fingerprint: asset.fingerprint, object: asset },
  { type: 'threat.created', livemode: true, object: EXAMPLE_THREAT },
];

// @ts-expect-error a threat is not the object of asset.risk_changed
const threatAsAsset: NewEvent = { type: 'asset.risk_changed', livemode: true, object: EXAMPLE_THREAT, extra };
// @ts-expect-error asset.risk_changed carries previous_attributes and summary
const withoutExtra: NewEvent = { type: 'asset.risk_changed', livemode: true, object: asset };
// @ts-expect-error the asset summary's score is an integer or null, not text
const scoreAsText: NewEvent<'asset.enriched'> = { type: 'asset.enriched', livemode: true, object: textScore };
// @ts-expect-error not a type of the catalogue
const unknownType: NewEvent = { type: 'asset.deleted', livemode: true, object: asset };

describe('event payloads by type', () => {
  it('accepts the payloads the catalogue schema of each type parses', () => {
    for (const event of accepted) {
      const schema = WEBHOOK_EVENTS[event.type as EventTypeName].schema.shape.data;
      expect(schema.safeParse({ object: event.object, ...(event.extra ?? {}) }).success).toBe(true);
    }
  });

  it('the payloads the types refuse are refused by the schemas too', () => {
    const refused = [threatAsAsset, withoutExtra, scoreAsText, unknownType];
    const parses = refused.map((event) => {
      const entry = WEBHOOK_EVENTS[event.type as EventTypeName] as (typeof WEBHOOK_EVENTS)[EventTypeName] | undefined;
      return entry?.schema.shape.data.safeParse({ object: event.object, ...(event.extra ?? {}) }).success ?? false;
    });
    expect(parses).toEqual([false, false, false, false]);
  });
});
