/** Our named filter widgets (uiSchema 'ui:widget'), looked up by name; RJSF's own widgets stay available. */
import type { RegistryWidgetsType } from '@rjsf/utils';
import type { OUR_FILTER_WIDGETS } from '../../../../shared/definitions/filter-widgets';
import { TrainWidget } from './TrainWidget';
import { DateWidget } from './DateWidget';
import { DivisionWidget, LobbyWidget, ZoneWidget } from './CascadeWidgets';
import { SelectWidget } from './SelectWidget';

const ours: Record<(typeof OUR_FILTER_WIDGETS)[number], RegistryWidgetsType[string]> = {
  train: TrainWidget,
  date: DateWidget,
  zone: ZoneWidget,
  division: DivisionWidget,
  lobby: LobbyWidget,
};

/**
 * Also used for fields that name no widget: string fields with format 'date' (RJSF looks up 'DateWidget') and enum
 * fields (RJSF looks up 'SelectWidget'; ours ties the label to the control and names the dropdown's parts).
 */
export const filterWidgets: RegistryWidgetsType = { ...ours, DateWidget, SelectWidget };
