import { Dropdown } from 'primereact/dropdown';
import { Widgets } from '@rjsf/primereact';
import { ariaDescribedByIds, enumOptionsIndexForValue, enumOptionsValueForIndex, type WidgetProps } from '@rjsf/utils';
import { dropdownNames } from './dropdown-a11y';

/**
 * A filter's choice from a list (enum fields), in place of RJSF's PrimeReact select: the field's label is tied to
 * the focusable combobox (inputId), the hidden native select and the arrow carry names, an optional field can be
 * cleared back to "All", and the keyboard works as in every PrimeReact Dropdown (arrows, Enter, typing a letter).
 * Lists of several values keep RJSF's own multi-select.
 */
export function SelectWidget(props: WidgetProps) {
  const { id, htmlName, label, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, rawErrors = [], options, placeholder, multiple } = props;
  const RjsfSelect = Widgets.SelectWidget;
  if (multiple && RjsfSelect) return <RjsfSelect {...props} />;
  const enumOptions = options.enumOptions ?? [];
  const selected = enumOptionsIndexForValue(value, enumOptions, false);
  const index = typeof selected === 'string' ? selected : null;
  const name = label || id;
  return (
    <Dropdown
      inputId={id}
      name={htmlName || id}
      value={index}
      options={enumOptions.map((o, i) => ({
        label: o.label,
        value: String(i),
        disabled: Array.isArray(options.enumDisabled) && options.enumDisabled.includes(o.value),
      }))}
      onChange={(e) => {
        const v: unknown = e.value;
        onChange(typeof v === 'string' && v !== '' ? enumOptionsValueForIndex(v, enumOptions, options.emptyValue) : options.emptyValue);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      placeholder={placeholder || (required ? 'Choose' : 'All')}
      showClear={!required && index !== null && !(disabled || readonly)}
      filter={enumOptions.length > 10}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      invalid={rawErrors.length > 0}
      aria-describedby={ariaDescribedByIds(id)}
      pt={dropdownNames(name)}
    />
  );
}
