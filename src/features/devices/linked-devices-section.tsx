/**
 * Settings: the user's linked phones (document 1 §3 Device; document 2 "Security settings"):
 * name, type, location, last activity and what each may approve (toggles: PATCH), unlink with a
 * confirmation, and "Link a phone" (the link-device statechart in a dialog). Mutations invalidate
 * the device queries so the list is always what the platform says.
 */
import { useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Device } from '../../../api/devices.ts';
import { DEVICE_TYPE_NAMES } from '../../../api/auth.ts';
import { linkDeviceMachine } from '../../../machines/link-device/link-device.machine.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { countryName, formatDateTime } from '../../lib/format.ts';
import { createStartLinkActor, createWaitForLinkActor, expiryTimerActor, setApproveMethod, unlinkDevice, type MutationErrorCode } from './actors.ts';
import { LinkDeviceView } from './link-device-view.tsx';
import { DEVICES_KEY, approveMethodsQuery, devicesQuery } from './queries.ts';
import type { SessionAccess } from '../../lib/token-service-rest.ts';
import type { LinkDeviceMachine } from '../../../machines/link-device/link-device.machine.ts';

export interface LinkedDevicesSectionProps {
  access: SessionAccess;
  /** tests provide the link machine with their own actors */
  linkLogic?: LinkDeviceMachine;
}

export function LinkedDevicesSection({ access, linkLogic }: LinkedDevicesSectionProps) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const devices = useQuery(devicesQuery(access));
  const methods = useQuery(approveMethodsQuery(access));
  const [linking, setLinking] = useState(0);
  const [unlinkTarget, setUnlinkTarget] = useState<Device | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: [DEVICES_KEY] });

  const phoneName = t`My phone`;
  const liveLinkLogic = useMemo(
    () =>
      linkLogic ??
      linkDeviceMachine.provide({
        actors: { startLink: createStartLinkActor(access, phoneName), waitForLink: createWaitForLinkActor(access), expiryTimer: expiryTimerActor },
      }),
    [linkLogic, access, phoneName],
  );

  // Trying again cannot help here: the user must first choose another two-step method (above).
  const onlySignInPhone = t`This is the only phone that approves your sign-ins. Choose another two-step verification method first, then try again.`;
  const unlink = useMutation({
    mutationFn: async (device: Device) => {
      const res = await unlinkDevice(access, device.id);
      if (!res.ok) throw new MutationError(res.code);
    },
    onSuccess: () => {
      setUnlinkTarget(null);
      setActionError(null);
    },
    onError: (err) => {
      // The dialog closes so the message is read in the page (a modal keeps the page inert).
      setUnlinkTarget(null);
      setActionError(isOnlySignInPhone(err) ? onlySignInPhone : t`The phone could not be unlinked. Please try again.`);
    },
    onSettled: invalidate,
  });
  const toggle = useMutation({
    mutationFn: async (p: { deviceId: number; methodId: number; enabled: boolean }) => {
      const res = await setApproveMethod(access, p.deviceId, p.methodId, p.enabled);
      if (!res.ok) throw new MutationError(res.code);
    },
    onSuccess: () => setActionError(null),
    onError: (err) => setActionError(isOnlySignInPhone(err) ? onlySignInPhone : t`The setting was not saved. Please try again.`),
    onSettled: invalidate,
  });

  const methodNames: Record<string, string> = { login: t`Approve sign-ins`, twoStepMode: t`Approve two-step verification changes` };
  const locale = i18n.locale === 'au' ? 'en-AU' : i18n.locale;

  return (
    <section className="card settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t`Linked phones`}</h2>
      <p>{t`A linked phone approves your sign-ins with one tap.`}</p>
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      {devices.isPending ? <Spinner label={t`Loading your phones…`} /> : null}
      {devices.isError ? (
        <Alert tone="error">
          {t`Your phones could not be loaded.`}{' '}
          <Button variant="link" onClick={() => void devices.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : null}
      {devices.data && devices.data.length === 0 ? <p>{t`No phone is linked yet.`}</p> : null}
      {devices.data && devices.data.length > 0 ? (
        <ul className="device-list" aria-label={t`Linked phones`}>
          {devices.data.map((device) => (
            <li key={device.id} className="device-item">
              <h3>{device.name}</h3>
              <dl>
                <dt>{t`Type`}</dt>
                <dd>{device.type ? DEVICE_TYPE_NAMES[device.type] : t`Unknown`}</dd>
                <dt>{t`Location`}</dt>
                <dd>{countryName(device.location, locale) ?? t`Unknown`}</dd>
                <dt>{t`Last activity`}</dt>
                <dd>{device.lastActivityAt ? formatDateTime(device.lastActivityAt, locale) : t`Never`}</dd>
              </dl>
              {methods.data ? (
                <fieldset className="device-methods">
                  <legend>{t`This phone may`}</legend>
                  {methods.data.map((method) => (
                    <label key={method.id} className="device-method">
                      <input
                        type="checkbox"
                        checked={device.approveMethodIds.includes(method.id)}
                        disabled={toggle.isPending}
                        onChange={(e) => toggle.mutate({ deviceId: device.id, methodId: method.id, enabled: e.currentTarget.checked })}
                      />
                      {methodNames[method.name] ?? method.name}
                    </label>
                  ))}
                </fieldset>
              ) : null}
              <Button variant="secondary" onClick={() => setUnlinkTarget(device)} aria-label={t`Unlink ${device.name}`}>
                {t`Unlink`}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Button onClick={() => setLinking((n) => n + 1)}>{t`Link a phone`}</Button>

      <Dialog open={linking > 0} title={t`Link a phone`} onClose={() => setLinking(0)}>
        {linking > 0 ? (
          <LinkDeviceView
            key={linking}
            logic={liveLinkLogic}
            onLinked={() => {
              void invalidate();
            }}
          />
        ) : null}
      </Dialog>

      <Dialog
        open={unlinkTarget !== null}
        title={t`Unlink this phone?`}
        onClose={() => setUnlinkTarget(null)}
        actions={
          <>
            <Button busy={unlink.isPending} onClick={() => unlinkTarget && unlink.mutate(unlinkTarget)}>
              {t`Unlink`}
            </Button>
            <Button variant="secondary" disabled={unlink.isPending} onClick={() => setUnlinkTarget(null)}>
              {t`Cancel`}
            </Button>
          </>
        }
      >
        <p>{t`${unlinkTarget?.name ?? ''} will no longer approve your sign-ins. You can link it again at any time.`}</p>
      </Dialog>
    </section>
  );
}

/** Product names, the same in every language (not messages to translate). */

/** A failed list mutation, carrying the actor's code (react-query wants a thrown error). */
class MutationError extends Error {
  constructor(readonly code: MutationErrorCode) {
    super(code);
  }
}

const isOnlySignInPhone = (err: unknown) => err instanceof MutationError && err.code === 'onlySignInPhone';

