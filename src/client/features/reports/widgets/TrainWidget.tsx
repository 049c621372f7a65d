import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { AutoComplete } from 'primereact/autocomplete';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useFilterWidgetContext } from './context';

const MAX_SUGGESTIONS = 50;

/** Suggestions for what was typed: numbers starting with it first, then numbers containing it. */
export function suggestTrains(trains: readonly string[], query: string): string[] {
  const q = query.trim().toUpperCase();
  if (!q) return trains.slice(0, MAX_SUGGESTIONS);
  const starts = trains.filter((t) => t.startsWith(q));
  const contains = trains.filter((t) => !t.startsWith(q) && t.includes(q));
  return [...starts, ...contains].slice(0, MAX_SUGGESTIONS);
}

/** Train number: free text (trimmed) with suggestions from the signed-in user's train list. */
export function TrainWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, required, disabled, readonly, autofocus, onChange, onBlur, onFocus, rawErrors = [], placeholder } = props;
  const { trains } = useFilterWidgetContext();
  const [items, setItems] = useState<string[]>([]);
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  return (
    <AutoComplete
      inputId={id}
      name={id}
      value={text}
      suggestions={items}
      completeMethod={(e) => setItems(suggestTrains(trains, e.query))}
      dropdown={trains.length > 0}
      dropdownAriaLabel={t('reports.showMyTrains')}
      onChange={(e) => {
        const v: unknown = e.value;
        const t = typeof v === 'string' ? v.trim() : '';
        onChange(t === '' ? undefined : t);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      invalid={rawErrors.length > 0}
      placeholder={placeholder || (trains.length > 0 ? t('reports.typeOrPickTrain') : t('reports.trainNumber'))}
      inputMode="numeric"
      autoComplete="off"
      maxLength={10}
      aria-describedby={ariaDescribedByIds(id)}
      className="report-widget-train"
    />
  );
}
