import type { PaginatorPassThroughOptions } from 'primereact/paginator';
import { dropdownNames } from '../widgets/dropdown-a11y';

/** The pager's rows-per-page drop-down named like the rest of the pager (its hidden select and arrow had no name). */
export const PAGER_PT: PaginatorPassThroughOptions = { RPPDropdown: dropdownNames('Rows per page') };
