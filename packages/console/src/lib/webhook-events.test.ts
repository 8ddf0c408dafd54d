import { EVENT_TYPES, eventsBody } from './webhook-events';

describe('eventsBody', () => {
  it('none or all chosen subscribes to "*"', () => {
    expect(eventsBody([])).toEqual(['*']);
    expect(eventsBody(EVENT_TYPES)).toEqual(['*']);
  });
  it('a subset is sent as chosen', () => {
    expect(eventsBody(['asset.risk_changed', 'threat.created'])).toEqual(['asset.risk_changed', 'threat.created']);
  });
});
