import type { ButtonHTMLAttributes, InputHTMLAttributes } from 'react';
import './controls.css';

/**
 * The login screen's text input, button and message line: the markup and class names of PrimeReact's InputText,
 * Button and Message, so the theme draws them the same, without PrimeReact's JavaScript (about 35 kB gzip of the
 * login's first load). controls.css holds the few structural rules PrimeReact would otherwise inject at run time.
 */

const classes = (...names: (string | false | undefined)[]): string => names.filter(Boolean).join(' ');

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'className'> {
  value: string;
}

export function TextInput({ value, disabled, ...rest }: TextInputProps) {
  return (
    <input
      {...rest}
      value={value}
      disabled={disabled}
      className={classes('p-inputtext p-component', disabled && 'p-disabled', value !== '' && 'p-filled')}
    />
  );
}

export interface ThemedButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'className'> {
  label: string;
  /** primeicons classes, e.g. 'pi pi-refresh'. */
  icon?: string;
  outlined?: boolean;
  /** Disables the button and shows a spinner in place of the icon. */
  loading?: boolean;
}

export function ThemedButton({ label, icon, outlined = false, loading = false, disabled = false, type = 'button', ...rest }: ThemedButtonProps) {
  const off = disabled || loading;
  const iconClass = loading ? 'pi pi-spinner pi-spin p-button-loading-icon' : icon;
  return (
    <button
      {...rest}
      type={type}
      aria-label={label}
      disabled={off}
      className={classes(
        'p-button p-component',
        off && 'p-disabled',
        outlined && 'p-button-outlined',
        loading && 'p-button-loading p-button-loading-left',
        loading && !icon && 'p-button-loading-label-only',
      )}
    >
      {iconClass && <span className={`p-button-icon p-c p-button-icon-left ${iconClass}`} aria-hidden="true" />}
      <span className="p-button-label p-c">{label}</span>
    </button>
  );
}

export type Severity = 'success' | 'info' | 'warn' | 'error';

const SEVERITY_ICONS: Record<Severity, string> = {
  success: 'pi-check',
  info: 'pi-info-circle',
  warn: 'pi-exclamation-triangle',
  error: 'pi-times-circle',
};

export function InlineMessage({ severity, text }: { severity: Severity; text: string }) {
  return (
    <div className={`p-inline-message p-component p-inline-message-${severity}`} role="alert" aria-live="polite" aria-atomic="true">
      <span className={`p-inline-message-icon pi ${SEVERITY_ICONS[severity]}`} aria-hidden="true" />
      <span className="p-inline-message-text">{text}</span>
    </div>
  );
}
