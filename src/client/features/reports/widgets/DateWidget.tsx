import { useTranslation } from 'react-i18next';
import { Calendar } from 'primereact/calendar';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

const pad = (n: number): string => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' -> a local Date at midnight (null for anything else). */
export function isoToDate(v: unknown): Date | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) || d.getMonth() !== Number(m[2]) - 1 ? null : d;
}

/** A local Date -> 'YYYY-MM-DD' (the calendar day the user picked, no time-zone shift). */
export function dateToIso(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Date shown dd/mm/yyyy, value an ISO date string as the schema's format 'date' expects. */
export function DateWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, rawErrors = [] } = props;
  return (
    <Calendar
      inputId={id}
      name={id}
      value={isoToDate(value)}
      onChange={(e) => {
        const v: unknown = e.value;
        onChange(v instanceof Date && !Number.isNaN(v.getTime()) ? dateToIso(v) : undefined);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      dateFormat="dd/mm/yy"
      placeholder={t('reports.datePlaceholder')}
      showIcon
      showButtonBar
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      invalid={rawErrors.length > 0}
      aria-describedby={ariaDescribedByIds(id)}
      className="report-widget-date"
    />
  );
}
