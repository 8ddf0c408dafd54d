import { severityOf } from './severity';

describe('severityOf', () => {
  it('follows the API bands', () => {
    expect([95, 90, 89, 70, 40, 10, 9].map(severityOf)).toEqual([
      'critical',
      'critical',
      'high',
      'high',
      'medium',
      'low',
      'informational',
    ]);
  });
});
