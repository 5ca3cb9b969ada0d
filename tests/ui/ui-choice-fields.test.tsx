/**
 * The design system's choice controls (src/ui/choice-fields.tsx) and AmountField: native inputs
 * underneath, labelled, wired to their hint and error, and operable from the keyboard.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CheckboxField, RadioGroup, Switch } from '../../src/ui/choice-fields.tsx';
import { AmountField } from '../../src/ui/amount-field.tsx';
import { expectNoAxeViolations } from './axe.ts';

// user-event finds a radio's group with CSS.escape, which jsdom lacks (browsers have it).
const withCss = globalThis as { CSS?: { escape?(value: string): string } };
if (!withCss.CSS?.escape) withCss.CSS = { ...withCss.CSS, escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) };

const describedTexts = (el: HTMLElement) => (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent);

describe('CheckboxField', () => {
  it('is a labelled checkbox that toggles by click and by Space, with its hint and error', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [on, setOn] = useState(false);
      return <CheckboxField label="I accept the terms" checked={on} onChange={setOn} hint="You can read them first" error={on ? undefined : 'Accept the terms to go on'} />;
    }
    render(<Harness />);
    const box = screen.getByRole('checkbox', { name: 'I accept the terms' });
    expect(box).toHaveProperty('checked', false);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(describedTexts(box)).toEqual(['You can read them first', 'Accept the terms to go on']);
    await user.click(screen.getByText('I accept the terms'));
    expect(box).toHaveProperty('checked', true);
    expect(box.hasAttribute('aria-invalid')).toBe(false);
    expect(describedTexts(box)).toEqual(['You can read them first']);
    box.focus();
    await user.keyboard(' ');
    expect(box).toHaveProperty('checked', false);
    await expectNoAxeViolations('CheckboxField');
  });
});

describe('RadioGroup', () => {
  function Harness({ onChange }: { onChange?: (v: string) => void }) {
    const [value, setValue] = useState('monthly');
    return (
      <RadioGroup
        legend="How often"
        name="frequency"
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange?.(v);
        }}
        hint="You can stop it at any time"
        options={[
          { value: 'daily', label: 'Every day' },
          { value: 'weekly', label: 'Every week' },
          { value: 'monthly', label: 'Every month', hint: 'On the same day' },
        ]}
      />
    );
  }

  it('is a named group of radios; the arrow keys move the choice', async () => {
    const user = userEvent.setup();
    const chosen: string[] = [];
    render(<Harness onChange={(v) => chosen.push(v)} />);
    const group = screen.getByRole('group', { name: 'How often' });
    expect(describedTexts(group)).toEqual(['You can stop it at any time']);
    const monthly = screen.getByRole('radio', { name: 'Every month' });
    expect(monthly).toHaveProperty('checked', true);
    expect(describedTexts(monthly)).toEqual(['On the same day']);
    await user.click(screen.getByRole('radio', { name: 'Every day' }));
    expect(screen.getByRole('radio', { name: 'Every day' })).toHaveProperty('checked', true);
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Every week' })).toHaveProperty('checked', true);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Every week' }));
    expect(chosen).toEqual(['daily', 'weekly']);
    await expectNoAxeViolations('RadioGroup');
  });
});

describe('Switch', () => {
  it('is a role=switch with its state, toggled by Space and by its label', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [on, setOn] = useState(false);
      return <Switch label="Notifications by e-mail" hint="Sign-ins and transfers" checked={on} onChange={setOn} />;
    }
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'Notifications by e-mail' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(describedTexts(toggle)).toEqual(['Sign-ins and transfers']);
    toggle.focus();
    await user.keyboard(' ');
    expect(screen.getByRole('switch', { name: 'Notifications by e-mail', checked: true })).toBe(toggle);
    await user.click(screen.getByText('Notifications by e-mail'));
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await expectNoAxeViolations('Switch');
  });
});

describe('AmountField', () => {
  it('asks for a decimal keypad and tells its currency with the label', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [amount, setAmount] = useState('');
      return <AmountField label="Amount" name="amount" currency="EUR" value={amount} onChange={setAmount} error={amount === '0' ? 'Enter more than 0' : undefined} />;
    }
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Amount' });
    expect(input.getAttribute('inputmode')).toBe('decimal');
    expect(describedTexts(input)).toEqual(['EUR']);
    await user.type(input, '0');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedTexts(input)).toEqual(['EUR', 'Enter more than 0']);
    await user.type(input, '.5');
    expect(input).toHaveProperty('value', '0.5');
    await expectNoAxeViolations('AmountField');
  });
});
