import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { lockedCode, optionsFor, type CascadeFields } from '../lib/cascade';
import { useFilterWidgetContext } from './context';
import { dropdownNames } from './dropdown-a11y';

function CascadeWidget({ level, props }: { level: keyof CascadeFields; props: WidgetProps }) {
  const { id, label, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, rawErrors = [] } = props;
  const { codes, codesStatus, fields, formData } = useFilterWidgetContext();
  const current = typeof value === 'string' ? value : '';
  const common = {
    name: id,
    disabled: disabled || readonly,
    required,
    autoFocus: autofocus,
    invalid: rawErrors.length > 0,
    'aria-describedby': ariaDescribedByIds(id),
    onBlur: () => onBlur(id, value),
    onFocus: () => onFocus(id, value),
  };
  if (codesStatus === 'error') {
    // The lookup failed: still usable as a code typed by hand (the server validates it).
    return <InputText id={id} value={current} onChange={(e) => onChange(e.target.value.trim().toUpperCase() || undefined)} {...common} />;
  }
  const options = optionsFor(level, codes, fields, formData);
  if (current && !options.includes(current)) options.unshift(current);
  // The user's own zone/division/lobby when their area has just one: shown, preset, and not changeable.
  const locked = codesStatus === 'ok' && lockedCode(level, codes) !== undefined && current === lockedCode(level, codes);
  return (
    <Dropdown
      inputId={id}
      value={current || null}
      options={options}
      onChange={(e) => {
        const v: unknown = e.value;
        onChange(typeof v === 'string' && v ? v : undefined);
      }}
      loading={codesStatus === 'loading'}
      placeholder={codesStatus === 'loading' ? 'Loading…' : required ? 'Choose' : 'All'}
      showClear={!required && current !== '' && !locked}
      filter={options.length > 10}
      emptyMessage="No codes available"
      {...common}
      disabled={common.disabled || locked}
      tooltip={locked ? 'Your area' : undefined}
      pt={dropdownNames(label || id)}
    />
  );
}

export const ZoneWidget = (props: WidgetProps) => <CascadeWidget level="zone" props={props} />;
export const DivisionWidget = (props: WidgetProps) => <CascadeWidget level="division" props={props} />;
export const LobbyWidget = (props: WidgetProps) => <CascadeWidget level="lobby" props={props} />;
