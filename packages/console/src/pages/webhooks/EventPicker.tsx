// Event-type checkboxes for an endpoint (none chosen = every event, sent as "*").
import { describeEvent, EVENT_TYPES, type EventType } from '../../lib/webhook-events';

export function EventPicker({ chosen, onChange }: { chosen: EventType[]; onChange: (c: EventType[]) => void }) {
  return (
    <fieldset>
      <legend>Events (none chosen = every event)</legend>
      <div className="form-row">
        {EVENT_TYPES.map((t) => (
          <label key={t} className="check" title={describeEvent(t)}>
            <input
              type="checkbox"
              checked={chosen.includes(t)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, t] : chosen.filter((x) => x !== t))}
            />{' '}
            {t}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
