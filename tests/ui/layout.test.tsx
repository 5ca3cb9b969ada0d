/** The accessible building blocks: labels, error wiring, dialog focus, popup content, toasts. */
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { errorPopupContent } from '../../src/lib/errors.ts';
import { clearToasts, pushToast } from '../../src/lib/notify.ts';
import { TextField } from '../../src/ui/text-field.tsx';
import { ErrorPopup } from '../../src/ui/error-popup.tsx';
import { ToastRegion } from '../../src/ui/toast-region.tsx';
import { Button } from '../../src/ui/button.tsx';

const wrap = (ui: React.ReactNode) => render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

describe('building blocks', () => {
  it('TextField binds its label, hint and error', () => {
    wrap(<TextField label="E-mail" name="email" value="x" onChange={() => undefined} hint="Your sign-in name" error="must be an e-mail address" />);
    const input = screen.getByRole('textbox', { name: 'E-mail' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(describedBy).toEqual(['Your sign-in name', 'must be an e-mail address']);
  });

  it('a busy Button is disabled and says so', () => {
    wrap(<Button busy>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('type')).toBe('button');
  });

  it('the error popup shows the rule’s header and body, takes focus and gives it back', async () => {
    function Harness() {
      const [open, setOpen] = useState(false);
      const content = errorPopupContent({ responseCode: 'UE', responseDescription: 'Transfer failed' }, 'Please try again later.');
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          <ErrorPopup content={open ? content : null} onClose={() => setOpen(false)} />
        </>
      );
    }
    wrap(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Transfer failed' });
    expect(dialog.textContent).toContain('Please try again later.');
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    await userEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('toasts appear in a live region and can be dismissed', async () => {
    wrap(<ToastRegion />);
    act(() => pushToast({ title: 'Payment received', body: '€10.00 from Boris', timeoutMs: 10_000 }));
    const region = screen.getByRole('list');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(screen.getByText('Payment received')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss notification: Payment received' }));
    expect(screen.queryByText('Payment received')).toBeNull();
    act(() => clearToasts());
  });
});
