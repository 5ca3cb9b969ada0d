/**
 * The device companion's entry (device.html, served at DEVICE_COMPANION_PATH): its own bundle, so
 * the web app's does not grow. Same catalogs and variant theme (src/ui/styles.ts) as the web app; the language comes
 * from the stored choice or the phone's (src/lib/i18n.ts). The hash carries `#link=<id>.<code>`
 * (linking) or `#approve=<key>` (open that request); it is removed from the address bar once read,
 * so the code does not stay in the history.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { activeVariant } from '../../variants/index.ts';
import { deviceCompanionMachine } from '../../machines/device-companion/device-companion.machine.ts';
import { parseCompanionHash } from '../../machines/device-companion/link-code.ts';
import { ensureAppCatalog, i18n, initI18n } from '../lib/i18n.ts';
import {
  approveDeviceActor,
  clearStoredLink,
  confirmRequestActor,
  detectDeviceType,
  listenActor,
  loadDeviceActor,
  readStoredLink,
  renewTimerActor,
  signInActor,
  unlinkDeviceActor,
  writeStoredLink,
} from './actors.ts';
import { CompanionShell } from './companion-shell.tsx';
import '../ui/styles.ts';
import './device.css';

export const liveCompanionMachine = deviceCompanionMachine.provide({
  actors: {
    approveDevice: approveDeviceActor,
    signIn: signInActor,
    loadDevice: loadDeviceActor,
    confirmRequest: confirmRequestActor,
    unlinkDevice: unlinkDeviceActor,
    listen: listenActor,
    renewTimer: renewTimerActor,
  },
  actions: {
    persistLink: (_, link) => writeStoredLink(link),
    forgetLink: () => clearStoredLink(),
  },
});

async function start() {
  await initI18n({ allowed: activeVariant.languages });
  // The companion's words are in the app catalog part.
  await ensureAppCatalog();
  document.title = activeVariant.projectName;
  // `?inspect` in development: the companion's actor reports to the inspector (src/lib/actors.ts)
  if (import.meta.env.DEV) await (await import('../app/inspector.ts')).installDevInspector();

  const hash = parseCompanionHash(window.location.hash);
  if (window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search);

  const container = document.getElementById('root');
  if (!container) throw new Error('device.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <CompanionShell
          logic={liveCompanionMachine}
          input={{
            storedLink: readStoredLink(),
            hashLink: hash.kind === 'link' ? hash.link : null,
            approveKey: hash.kind === 'approve' ? hash.key : null,
            detectedType: detectDeviceType(navigator.userAgent),
          }}
        />
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
