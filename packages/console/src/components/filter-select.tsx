// One list filter (docs/console.md "Pages"): a labelled select of the allowed values plus "any"; the value lives
// in the address, so `set` names the query parameter and the new value (null for "any").
export function FilterSelect(props: {
  label: string;
  name: string;
  value: string | undefined;
  options: readonly string[];
  set: (name: string, value: string | null) => void;
  disabled?: boolean;
}) {
  const id = `filter-${props.name}`;
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.set(props.name, e.target.value || null)}
      >
        <option value="">any</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}
