/**
 * Saves a downloaded attachment (a Blob read with the desk token) as a file: a temporary link
 * with the download attribute, clicked once; the object URL is revoked a while later (some
 * browsers read the file after click() returns). The name is the attachment's, reduced to safe
 * characters.
 */
const REVOKE_AFTER_MS = 40_000;

export function safeAttachmentName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
  return cleaned.length > 0 ? cleaned : 'attachment';
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = safeAttachmentName(fileName);
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
