import type { DropdownPassThroughOptions } from 'primereact/dropdown';

/**
 * Names for the parts of a PrimeReact Dropdown that screen readers meet besides its combobox input: the hidden
 * native <select> it keeps for form posts (removed from the accessibility tree: the combobox input is the control)
 * and the arrow, a role=button that would otherwise be named only by the placeholder, or not at all.
 */
export function dropdownNames(label: string): DropdownPassThroughOptions {
  return {
    select: { 'aria-hidden': true },
    trigger: { 'aria-label': `${label}: show the choices` },
  };
}
