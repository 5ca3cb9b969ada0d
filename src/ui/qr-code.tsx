/**
 * A QR code drawn as SVG (uqr `renderSVG`). The SVG is an image to assistive technology (role img
 * with the caller's label), and the encoded link or secret is also given as text under it: a QR
 * code alone shuts out anyone who cannot scan it (or is already on the phone that should open it).
 */
import { useMemo } from 'react';
import { renderSVG } from 'uqr';

/** QR codes hold at most ~2,900 bytes; links here are far shorter, so refuse anything longer. */
export const MAX_QR_VALUE_LENGTH = 2_048;

export interface QrCodeProps {
  /** what the code encodes: a link or a secret */
  value: string;
  /** what the image is, e.g. "QR code to approve this sign-in" */
  label: string;
  /** rendered width and height in CSS pixels */
  sizePx?: number;
  /** the text shown under the code: the value itself unless given (e.g. a formatted secret) */
  text?: string;
  /** true: the text is a link the user may open on this device */
  asLink?: boolean;
}

export function QrCode({ value, label, sizePx = 200, text, asLink = false }: QrCodeProps) {
  const tooLong = value.length > MAX_QR_VALUE_LENGTH;
  // The markup is uqr's own output: rect and path elements made from the bit matrix; the value
  // never appears in it as text, so injecting it is safe.
  const svg = useMemo(() => (tooLong ? '' : renderSVG(value, { border: 2, ecc: 'M' }).replace('<svg ', '<svg width="100%" height="100%" aria-hidden="true" ')), [value, tooLong]);
  const shown = text ?? value;
  return (
    <figure className="qr-code">
      {tooLong ? null : (
        <div
          role="img"
          aria-label={label}
          className="qr-code-image"
          style={{ width: sizePx, height: sizePx, background: '#fff' }}
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      )}
      <figcaption className="qr-code-text">
        {asLink ? (
          <a href={value} rel="noopener noreferrer">
            {shown}
          </a>
        ) : (
          <code>{shown}</code>
        )}
      </figcaption>
    </figure>
  );
}
