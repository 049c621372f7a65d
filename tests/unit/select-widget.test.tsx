// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubMatchMedia } from '../support/jsdom-media';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { generateForm } from '@rjsf/primereact';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { filterWidgets } from '../../src/client/features/reports/widgets/registry';
import { loadAppTexts } from '../../src/client/i18n';

beforeAll(async () => {
  // The widget's words ("All", "Choose", the arrow's name) come from the app's English texts.
  await loadAppTexts();
  stubMatchMedia();
});
afterEach(cleanup);

const Form = generateForm<Record<string, unknown>>();
const schema: RJSFSchema = {
  type: 'object',
  required: ['quota'],
  properties: {
    cls: { title: 'Class', type: 'string', enum: ['SL', '3A'] },
    quota: { title: 'Quota', type: 'string', enum: ['GN', 'TQ'] },
  },
};
const uiSchema = { cls: { 'ui:enumNames': ['Sleeper', 'AC 3 tier'] }, 'ui:submitButtonOptions': { norender: true } };

function renderForm(formData: Record<string, unknown> = {}) {
  const changes: Record<string, unknown>[] = [];
  const view = render(<Form schema={schema} uiSchema={uiSchema} formData={formData} validator={validator} widgets={filterWidgets} onChange={(e) => changes.push(e.formData ?? {})} />);
  return { changes, ...view };
}

describe('the filter select widget (enum fields)', () => {
  it('ties the label to the focusable drop-down input and names its hidden parts', () => {
    const { container } = renderForm();
    const input = screen.getByLabelText('Class');
    expect(input.tagName).toBe('INPUT');
    expect(input.getAttribute('aria-haspopup')).toBe('listbox');
    const root = input.closest('.p-dropdown');
    expect(root?.querySelector('select')?.getAttribute('aria-hidden')).toBe('true');
    expect(root?.querySelector('[role="button"]')?.getAttribute('aria-label')).toBe('Class: show the choices');
    expect(container.querySelectorAll('select:not([aria-hidden="true"])')).toHaveLength(0);
  });

  it('shows the words of the codes, "All" on an optional field and "Choose" on a required one', () => {
    renderForm({ cls: '3A' });
    expect(screen.getByLabelText('Class').closest('.p-dropdown')?.textContent).toContain('AC 3 tier');
    expect(screen.getByLabelText(/^Quota/, { selector: 'input' }).closest('.p-dropdown')?.textContent).toContain('Choose');
    cleanup();
    renderForm();
    expect(screen.getByLabelText('Class').closest('.p-dropdown')?.textContent).toContain('All');
  });

  it('picks a choice from the keyboard and hands RJSF the code', async () => {
    const { changes } = renderForm();
    const input = screen.getByLabelText('Class');
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(changes.at(-1)?.cls).toBe('SL'));
  });

  it('an optional field is cleared back to all', async () => {
    const { changes } = renderForm({ cls: 'SL' });
    const clear = screen.getByLabelText('Class').closest('.p-dropdown')?.querySelector('.p-dropdown-clear-icon');
    expect(clear).toBeTruthy();
    if (clear) fireEvent.pointerUp(clear);
    await waitFor(() => expect(changes.at(-1)?.cls).toBeUndefined());
  });
});
