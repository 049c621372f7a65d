import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../../i18n/messages';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { generateForm } from '@rjsf/primereact';
import type { ErrorSchema, ObjectFieldTemplateProps, RJSFSchema, UiSchema } from '@rjsf/utils';
import { Button } from 'primereact/button';
import type { PublicReport } from '../../../../shared/report-definition';
import { cleanFilter, trimIdFields, type Filter } from '../lib/filter-url';
import { customValidateFor, transformErrorsFor } from '../lib/rules';
import { cascadeFields, normaliseCascade, presetLockedCodes } from '../lib/cascade';
import { isObject, type FieldProblem } from '../lib/parse';
import { filterWidgets } from '../widgets/registry';
import { FilterWidgetContext, type FilterWidgetContextValue } from '../widgets/context';
import { useFilterValidator, useRailwayCodes, useTrainList } from '../api';
import { LoadingRows } from './States';

/** The filter's fields side by side, wrapping on narrow screens. */
function FieldsGrid(props: ObjectFieldTemplateProps) {
  return (
    <div className="report-filter-fields">
      {props.properties.map((p) => (
        <div key={p.name} className="report-filter-field" hidden={p.hidden}>
          {p.content}
        </div>
      ))}
    </div>
  );
}

const templates = { ObjectFieldTemplate: FieldsGrid };

/** The PrimeReact-themed RJSF form, typed for a filter object. */
const Form = generateForm<Filter>();

export interface FilterFormProps {
  report: PublicReport;
  value: Filter;
  onChange: (value: Filter) => void;
  onRun: (filter: Filter) => void;
  onReset: () => void;
  running: boolean;
  /** Field problems from the server's 400 answer, shown on the fields. */
  serverErrors: readonly FieldProblem[];
  extraButtons?: ReactNode;
}

/** The report's filter: RJSF over the definition's schema, our named widgets, the definition's rules. */
export function FilterForm({ report, value, onChange, onRun, onReset, running, serverErrors, extraButtons }: FilterFormProps) {
  const { t } = useTranslation();
  const { schema, uiSchema, rules } = report.filter;
  const fields = useMemo(() => cascadeFields(uiSchema), [uiSchema]);
  const needsCodes = fields.zone !== undefined || fields.division !== undefined || fields.lobby !== undefined;
  const { codes, status: codesStatus } = useRailwayCodes(needsCodes);
  const trains = useTrainList();
  const [submitted, setSubmitted] = useState(false);
  const customValidate = useMemo(() => customValidateFor(rules), [rules]);
  const transformErrors = useMemo(() => transformErrorsFor(schema), [schema]);
  const extraErrors = useMemo(() => {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const out: Record<string, { __errors: string[] }> = {};
    for (const p of serverErrors) if (p.field in properties) (out[p.field] ??= { __errors: [] }).__errors.push(localizeMessage(p.reason));
    return out as ErrorSchema<Filter>;
  }, [serverErrors, schema]);
  // A scoped user's own zone/division/lobby is preset as soon as their lists arrive (and kept after a Reset).
  useEffect(() => {
    if (codesStatus !== 'ok') return;
    const preset = presetLockedCodes(value, fields, codes);
    if (preset !== value) onChange(preset);
  }, [codesStatus, codes, fields, value, onChange]);
  const ctx: FilterWidgetContextValue = useMemo(() => ({ formData: value, codes, codesStatus, fields, trains }), [value, codes, codesStatus, fields, trains]);
  const checks = useFilterValidator(report);

  if (checks.status === 'loading') return <LoadingRows label={t('reports.loadingFilter')} />;
  if (checks.status === 'error') {
    return (
      <p className="report-filter-form" role="alert">
        {t('reports.filterFailed', { message: checks.message })}
      </p>
    );
  }

  return (
    <FilterWidgetContext.Provider value={ctx}>
      <Form
        className="report-filter-form"
        // The definition's filter schema is a JSON schema object checked at the boundary; RJSF types it as RJSFSchema.
        schema={schema as RJSFSchema}
        uiSchema={{ ...(uiSchema as UiSchema<Filter> | undefined), 'ui:submitButtonOptions': { norender: true } }}
        formData={value}
        validator={checks.validator}
        widgets={filterWidgets}
        templates={templates}
        customValidate={customValidate}
        transformErrors={transformErrors}
        extraErrors={extraErrors}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        liveValidate={submitted ? 'onChange' : undefined}
        onChange={(e) => onChange(normaliseCascade(trimIdFields(e.formData ?? {}, schema), fields, codes))}
        onSubmit={(e) => onRun(cleanFilter(e.formData ?? {}, schema))}
        onError={() => setSubmitted(true)}
      >
        <div className="report-filter-actions">
          <Button type="submit" label={running ? t('reports.running') : t('reports.run')} icon="pi pi-play" loading={running} onClick={() => setSubmitted(true)} />
          <Button
            type="button"
            label={t('reports.reset')}
            icon="pi pi-undo"
            outlined
            onClick={() => {
              setSubmitted(false);
              onReset();
            }}
          />
          {extraButtons}
        </div>
      </Form>
    </FilterWidgetContext.Provider>
  );
}
