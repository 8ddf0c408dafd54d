// The payload of each event type, as a type (docs/webhooks.md "Event catalogue"): what an emitter must write in
// `data` for that type, read from the same schemas the webhook document and GET /v1/events are built from
// (webhook-events.ts), so an emitter and the catalogue cannot disagree.
import type { z } from '../zod';
import type { WEBHOOK_EVENTS } from './webhook-events';
import type { EventTypeName } from './webhook-event-schemas';

/** The `data` of an event of type `T` (its schema's input: the JSON a receiver parses). */
export type EventData<T extends EventTypeName> = z.input<(typeof WEBHOOK_EVENTS)[T]['schema']>['data'];

/** `data.object`: the resource as the API renders it. */
export type EventObject<T extends EventTypeName> = EventData<T>['object'];

/** The fields of `data` beside `object` (previous_attributes, summary, tools), by type. */
export type EventExtra<T extends EventTypeName> = Omit<EventData<T>, 'object'>;
