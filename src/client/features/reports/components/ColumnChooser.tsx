import { useTranslation } from 'react-i18next';
import { useId, useRef } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { OverlayPanel } from 'primereact/overlaypanel';
import { Dropdown } from 'primereact/dropdown';

export interface ChooserColumn {
  field: string;
  header: string;
  visible: boolean;
  pinned: 'left' | 'right' | null;
}

const PIN_OPTIONS = [
  { label: 'reports.notPinned', value: 'none' },
  { label: 'reports.pinLeft', value: 'left' },
  { label: 'reports.pinRight', value: 'right' },
] as const;

/** Show/hide, pin and reorder columns with the keyboard (headers can also be dragged and resized). */
export function ColumnChooser({ columns, onChange, onReset }: { columns: ChooserColumn[]; onChange: (next: ChooserColumn[]) => void; onReset: () => void }) {
  const { t } = useTranslation();
  const pinOptions = PIN_OPTIONS.map((o) => ({ label: t(o.label), value: o.value }));
  const panel = useRef<OverlayPanel>(null);
  const baseId = useId();
  const visibleCount = columns.filter((c) => c.visible).length;
  const update = (i: number, patch: Partial<ChooserColumn>) => onChange(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const move = (i: number, by: -1 | 1) => {
    const j = i + by;
    if (j < 0 || j >= columns.length) return;
    const next = [...columns];
    const a = next[i];
    const b = next[j];
    if (!a || !b) return;
    next[i] = b;
    next[j] = a;
    onChange(next);
  };
  return (
    <>
      <Button type="button" icon="pi pi-table" label={t('reports.columns')} outlined size="small" aria-haspopup="dialog" onClick={(e) => panel.current?.toggle(e)} />
      <OverlayPanel ref={panel} aria-label={t('reports.columns')} className="report-column-chooser">
        <ul className="report-column-list">
          {columns.map((c, i) => (
            <li key={c.field}>
              <Checkbox
                inputId={`${baseId}-${c.field}`}
                checked={c.visible}
                disabled={c.visible && visibleCount === 1}
                onChange={(e) => update(i, { visible: e.checked === true })}
              />
              <label htmlFor={`${baseId}-${c.field}`}>{c.header}</label>
              <Dropdown
                value={c.pinned ?? 'none'}
                options={pinOptions}
                onChange={(e) => update(i, { pinned: e.value === 'left' || e.value === 'right' ? e.value : null })}
                aria-label={t('reports.pinningOf', { column: c.header })}
                className="p-inputtext-sm"
              />
              <Button type="button" icon="pi pi-arrow-up" text size="small" aria-label={t('reports.moveLeft', { column: c.header })} disabled={i === 0} onClick={() => move(i, -1)} />
              <Button type="button" icon="pi pi-arrow-down" text size="small" aria-label={t('reports.moveRight', { column: c.header })} disabled={i === columns.length - 1} onClick={() => move(i, 1)} />
            </li>
          ))}
        </ul>
        <Button type="button" label={t('reports.restoreColumns')} icon="pi pi-refresh" text size="small" onClick={onReset} />
      </OverlayPanel>
    </>
  );
}
