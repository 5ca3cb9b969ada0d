/**
 * The link between the settings screen (or /scp) and the device companion: POST
 * /auth/devices/{id}/approve needs the pending device's id and its 8-character code. The QR code
 * and the deeplink carry both as `#link=<id>.<code>`; a person types both as one "link code",
 * shown as `<id>-<code>` (e.g. 42-KX7P9QMA). Pure: shared by the companion and the web app.
 */

export interface LinkCode {
  deviceId: number;
  code: string;
}

/** Ids are database serials; 12 digits is far beyond any real one (a limit on everything). */
/** The code is always 8 characters, so an id typed without a separator still splits one way. */
const LINK_CODE_PATTERN = /^(\d{1,12})[-.\s]*([A-Z0-9]{4})[-\s]?([A-Z0-9]{4})$/;
/** A hash fragment is short; anything longer is not ours. */
export const MAX_HASH_LENGTH = 256;

export function formatLinkCode(deviceId: number, code: string): string {
  return `${deviceId}-${code}`;
}

/** Reads a typed link code: spaces and dashes anywhere, any case. Null when it is not one. */
export function parseLinkCode(text: string): LinkCode | null {
  const cleaned = text.trim().toUpperCase().slice(0, 64);
  const match = LINK_CODE_PATTERN.exec(cleaned);
  if (!match) return null;
  const deviceId = Number(match[1]);
  if (!Number.isSafeInteger(deviceId) || deviceId <= 0) return null;
  return { deviceId, code: `${match[2]}${match[3]}` };
}

/** The companion's hash: `#link=<id>.<code>` (from a QR code or deeplink) or `#approve=<key>`. */
export type CompanionHash = { kind: 'link'; link: LinkCode } | { kind: 'approve'; key: string } | { kind: 'none' };

export function parseCompanionHash(hash: string): CompanionHash {
  if (hash.length > MAX_HASH_LENGTH) return { kind: 'none' };
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const link = params.get('link');
  if (link !== null) {
    const parsed = parseLinkCode(link);
    return parsed ? { kind: 'link', link: parsed } : { kind: 'none' };
  }
  const key = params.get('approve');
  if (key !== null && /^[A-Za-z0-9_-]{1,128}$/.test(key)) return { kind: 'approve', key };
  return { kind: 'none' };
}
