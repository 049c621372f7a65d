// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { InlineMessage, TextInput, ThemedButton } from '../../src/client/features/auth/controls';

/** Tag, classes (sorted) and accessible attributes of an element and its element children, icons left out. */
function shape(el: ReactElement): unknown {
  const host = document.createElement('div');
  host.innerHTML = renderToStaticMarkup(el);
  // PrimeReact draws icons as <svg>, ours are the same primeicons glyphs in a <span>: an icon is an icon.
  const isIcon = (e: Element): boolean => e.classList.contains('p-button-icon') || e.classList.contains('p-inline-message-icon');
  const describe = (e: Element): unknown => ({
    tag: isIcon(e) ? 'icon' : e.tagName,
    classes: [...e.classList].filter((c) => !c.startsWith('pi') && c !== 'p-icon' && c !== 'p-icon-spin').sort(),
    attrs: ['type', 'disabled', 'aria-label', 'role', 'value'].map((a) => e.getAttribute(a)),
    text: isIcon(e) ? null : e.children.length === 0 ? e.textContent : null,
    children: isIcon(e) ? [] : [...e.children].map(describe),
  });
  const root = host.firstElementChild;
  if (!root) throw new Error('nothing rendered');
  return describe(root);
}

const noop = (): void => undefined;

/** The login screen's controls copy PrimeReact's markup so the theme draws them the same (controls.tsx). */
describe('login controls match PrimeReact markup', () => {
  it.each([
    ['empty', { value: '' }],
    ['filled', { value: 'HHTSU' }],
    ['disabled', { value: 'x', disabled: true }],
  ])('text input, %s', (_name, props) => {
    expect(shape(<TextInput id="u" onChange={noop} {...props} />)).toEqual(shape(<InputText id="u" onChange={noop} {...props} />));
  });

  it.each([
    ['plain submit', { type: 'submit' as const, label: 'Login' }],
    ['outlined with an icon, disabled', { label: 'Refresh', icon: 'pi pi-refresh', outlined: true, disabled: true }],
    ['loading', { type: 'submit' as const, label: 'Verify OTP', loading: true }],
    ['outlined', { label: 'Back to Login', outlined: true }],
  ])('button, %s', (_name, props) => {
    expect(shape(<ThemedButton {...props} />)).toEqual(shape(<Button type="button" {...props} />));
  });

  it.each(['error', 'info', 'success', 'warn'] as const)('message line, %s', (severity) => {
    expect(shape(<InlineMessage severity={severity} text="Incorrect OTP." />)).toEqual(shape(<Message severity={severity} text="Incorrect OTP." />));
  });
});
