/**
 * src/ui/qr-code.tsx: an image with a label, a real QR matrix, and the value as text too.
 * Proof it can fail: drawing the code of a different value (broken on purpose, restored) made the
 * matrix check go red.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { encode } from 'uqr';
import { MAX_QR_VALUE_LENGTH, QrCode } from '../../src/ui/qr-code.tsx';

afterEach(cleanup);

describe('QrCode', () => {
  it('is a labelled image of the value, which is also given as a link', () => {
    const link = 'https://bank.test/device/#approve=k1';
    render(<QrCode value={link} label="QR code to approve" asLink />);
    const img = screen.getByRole('img', { name: 'QR code to approve' });
    const svg = img.querySelector('svg');
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
    // the drawing is the QR matrix of the value (uqr's modules: one 10-unit square per dark module)
    const dark = encode(link, { border: 2, ecc: 'M' }).data.flat().filter(Boolean).length;
    expect(svg?.querySelector('path')?.getAttribute('d')?.match(/M/g)?.length).toBe(dark);
    expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(link);
  });

  it('shows a secret as text, not as a link, in the format it is given', () => {
    render(<QrCode value="otpauth://totp/Bank:anna?secret=ABC" label="QR code for your authenticator app" text="ABC" />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('ABC').tagName).toBe('CODE');
  });

  it('refuses a value longer than a QR code should hold, keeping the text', () => {
    const value = 'x'.repeat(MAX_QR_VALUE_LENGTH + 1);
    render(<QrCode value={value} label="too long" />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText(value)).toBeTruthy();
  });
});
