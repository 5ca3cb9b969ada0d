/** The phone side of /scp: explains, then opens the companion with the link from the deeplink. */
import { useLingui } from '@lingui/react/macro';
import { DEVICE_COMPANION_PATH } from '../../../api/devices.ts';
import { parseCompanionHash } from '../../../machines/device-companion/link-code.ts';
import { Alert } from '../../ui/alert.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';

export function ScpMobileView({ hash }: { hash: string }) {
  const { t } = useLingui();
  const parsed = parseCompanionHash(hash);
  const href = parsed.kind === 'link' ? `${DEVICE_COMPANION_PATH}#link=${parsed.link.deviceId}.${parsed.link.code}` : DEVICE_COMPANION_PATH;
  return (
    <section aria-labelledby="scp-mobile-heading">
      <StepHeading id="scp-mobile-heading">{t`Link this phone`}</StepHeading>
      <p>{t`This phone will approve your sign-ins: when you sign in, a request appears on it and you approve it with one tap.`}</p>
      <p>{t`Open the approval page, check the link code and link the phone. You can add the page to your home screen to find it quickly.`}</p>
      {parsed.kind === 'link' ? null : <Alert tone="warning">{t`This link has no link code. Type the code shown in your online banking on the approval page.`}</Alert>}
      <a className="btn btn-primary" href={href}>
        {t`Open the approval page`}
      </a>
    </section>
  );
}
