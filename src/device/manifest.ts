/**
 * The companion's web app manifest (installable: name, icons, start_url, standalone display),
 * made from the build's variant so the installed icon and title bar carry the provider's name and
 * colours. Pure data: vite.config.ts emits it as /device/manifest.webmanifest (and serves it in
 * development).
 */
import { DEVICE_COMPANION_PATH } from '../../api/devices.ts';
import type { Variant } from '../../variants/schema.ts';

export const DEVICE_MANIFEST_FILE = 'device/manifest.webmanifest';
export const DEVICE_MANIFEST_TYPE = 'application/manifest+json';

export function deviceManifest(variant: Pick<Variant, 'projectName' | 'theme' | 'languages'>) {
  return {
    name: `${variant.projectName} Approve`,
    short_name: variant.projectName.slice(0, 12),
    description: `${variant.projectName}: approve sign-ins on this phone`,
    id: DEVICE_COMPANION_PATH,
    start_url: DEVICE_COMPANION_PATH,
    scope: DEVICE_COMPANION_PATH,
    display: 'standalone',
    orientation: 'portrait',
    theme_color: variant.theme.primary,
    background_color: variant.theme.bg,
    lang: variant.languages[0] ?? 'en',
    icons: [
      { src: `${DEVICE_COMPANION_PATH}icon.svg`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: `${DEVICE_COMPANION_PATH}icon-maskable.svg`, sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
      // PNG for launchers that take no SVG (rendered from icon.svg)
      { src: `${DEVICE_COMPANION_PATH}icon-192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: `${DEVICE_COMPANION_PATH}icon-512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
    ],
  };
}

export function deviceManifestJson(variant: Pick<Variant, 'projectName' | 'theme' | 'languages'>): string {
  return `${JSON.stringify(deviceManifest(variant), null, 2)}\n`;
}
