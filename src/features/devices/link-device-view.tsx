/**
 * Linking a phone: the QR code (the companion link, or the /scp-mobile deeplink), the code to type
 * instead, the expiry, and (on /scp) "Send me the link by SMS". Reads link-device.select.ts and
 * sends events; `onLinked` runs once the phone finished linking.
 */
import { useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import { linkDeviceMachine, type LinkDeviceMachine } from '../../../machines/link-device/link-device.machine.ts';
import { selectLinkDeviceView } from '../../../machines/link-device/link-device.select.ts';
import { formatLinkCode } from '../../../machines/device-companion/link-code.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { QrCode } from '../../ui/qr-code.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { linkErrorMessages } from './messages.ts';

export interface LinkDeviceViewProps {
  /** the machine with its actors (settings or /scp); tests provide their own */
  logic?: LinkDeviceMachine;
  /** offer "Send me the link by SMS" (/scp) */
  offerSms?: boolean;
  onLinked(deviceId: number): void;
}

export function LinkDeviceView({ logic = linkDeviceMachine, offerSms = false, onLinked }: LinkDeviceViewProps) {
  const { t, i18n } = useLingui();
  const onLinkedRef = useRef(onLinked);
  onLinkedRef.current = onLinked;
  const actor = useFlowActor(logic.provide({ actions: { reportLinked: (_, deviceId) => onLinkedRef.current(deviceId) } }));
  const view = selectLinkDeviceView(useSelector(actor, (s) => s));
  const [phone, setPhone] = useState('');

  const errorText = view.error ? <Alert tone="error">{i18n._(linkErrorMessages[view.error])}</Alert> : null;

  if (view.step === 'requesting') {
    return (
      <div className="link-device" aria-busy={view.busy || undefined}>
        <Spinner label={t`Preparing a link code…`} />
      </div>
    );
  }
  if (view.step === 'failed' || view.step === 'expired') {
    return (
      <div className="link-device">
        {view.step === 'expired' ? <Alert tone="warning">{t`The link code has expired.`}</Alert> : errorText}
        <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Get a new code`}</Button>
      </div>
    );
  }
  if (view.step === 'linked') {
    return (
      <Alert tone="success" title={t`Phone linked`}>
        <p>{t`Your phone can now approve your sign-ins.`}</p>
      </Alert>
    );
  }

  const link = view.link;
  if (!link) return null;
  const expiresAt = new Intl.DateTimeFormat(i18n.locale === 'au' ? 'en-AU' : i18n.locale, { timeStyle: 'short' }).format(Date.now() + link.expiresInS * 1000);
  const typed = formatLinkCode(link.deviceId, link.code);
  return (
    <div className="link-device" aria-busy={view.busy || undefined}>
      <ol className="link-device-steps">
        <li>{t`On your phone, open the camera and scan this code. It opens the approval page of your bank.`}</li>
        <li>{t`Or open the approval page on your phone and type the link code.`}</li>
        <li>{t`Keep this window open: it closes by itself once the phone is linked.`}</li>
      </ol>
      <QrCode value={link.link} label={t`QR code to link your phone`} asLink />
      <p>
        {t`Link code:`} <strong className="link-device-code">{typed}</strong>
      </p>
      <p>{t`The code is valid until ${expiresAt}.`}</p>
      <p role="status" className="link-device-waiting">
        <span className="spinner-mark" aria-hidden="true" /> {t`Waiting for your phone…`}
      </p>
      {errorText}
      {offerSms ? (
        <form
          noValidate
          className="link-device-sms"
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'SMS.SEND', phoneNumber: phone });
          }}
        >
          <TextField
            label={t`Phone number`}
            name="phoneNumber"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            value={phone}
            onChange={setPhone}
            maxLength={21}
            hint={t`We send the link to the approval page to this number.`}
            error={view.phoneError ? t`Enter a phone number, for example +370 600 00000.` : undefined}
          />
          <Button type="submit" variant="secondary" busy={view.sendingSms}>
            {t`Send me the link by SMS`}
          </Button>
          {view.smsSent > 0 ? <Alert tone="success">{t`The link is on its way to your phone.`}</Alert> : null}
        </form>
      ) : null}
    </div>
  );
}
