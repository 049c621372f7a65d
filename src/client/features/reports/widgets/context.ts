import { createContext, useContext } from 'react';
import type { CascadeFields } from '../lib/cascade';
import type { Filter } from '../lib/filter-url';
import type { RailwayCode } from '../lib/parse';

/** What our filter widgets need beyond their own value: the whole form, the railway codes, the train list. */
export interface FilterWidgetContextValue {
  formData: Filter;
  codes: readonly RailwayCode[];
  codesStatus: 'idle' | 'loading' | 'ok' | 'error';
  fields: CascadeFields;
  trains: readonly string[];
}

export const FilterWidgetContext = createContext<FilterWidgetContextValue>({ formData: {}, codes: [], codesStatus: 'idle', fields: {}, trains: [] });
export const useFilterWidgetContext = (): FilterWidgetContextValue => useContext(FilterWidgetContext);
