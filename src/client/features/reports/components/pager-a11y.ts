import type { PaginatorPassThroughOptions } from 'primereact/paginator';
import { dropdownNames } from '../widgets/dropdown-a11y';

/**
 * The pager's rows-per-page drop-down named like the rest of the pager (its hidden select and arrow had no name), and
 * its combobox named in the interface language: PrimeReact's pager takes that name from a locale table of its own,
 * which stays English ("Jump to Page Dropdown").
 */
export const pagerNames = (triggerName: string, rowsPerPage: string): PaginatorPassThroughOptions => ({
  RPPDropdown: { ...dropdownNames(triggerName), input: { 'aria-label': rowsPerPage } },
});
