/**
 * The device companion's screen: link this phone, then answer approval requests with one tap.
 * Reads the statechart through device-companion.select.ts and sends events; nothing else.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { ApprovalRequest } from '../../api/devices.ts';
import { DEVICE_TYPE_NAMES, DEVICE_TYPES } from '../../api/auth.ts';
import {
  deviceCompanionMachine,
  type CompanionErrorCode,
  type CompanionInput,
  type DeviceCompanionMachine,
  type DeviceType,
} from '../../machines/device-companion/device-companion.machine.ts';
import { selectCompanionView } from '../../machines/device-companion/device-companion.select.ts';
import { parseCompanionHash } from '../../machines/device-companion/link-code.ts';
import { Alert } from '../ui/alert.tsx';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { StepHeading } from '../ui/step-heading.tsx';
import { TextField } from '../ui/text-field.tsx';
import { companionErrorMessages, companionNoticeMessages } from './messages.ts';
import { describeUserAgent } from '../lib/user-agent.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { languageTags, type UiLang } from '../lib/i18n.ts';

export interface CompanionViewProps {
  input: CompanionInput;
  /** the machine with its real actors and storage actions (main.tsx); tests provide their own */
  logic?: DeviceCompanionMachine;
  /** for the requests' "when" (tests pin it) */
  nowMs?: () => number;
}

export function CompanionView({ input, logic = deviceCompanionMachine, nowMs = Date.now }: CompanionViewProps) {
  const { t, i18n } = useLingui();
  const actor = useFlowActor(logic, { input });
  const view = selectCompanionView(useSelector(actor, (s) => s));

  // The sign-in page's QR code may open the companion again with #approve=<key>.
  useEffect(() => {
    const onHash = () => {
      const hash = parseCompanionHash(window.location.hash);
      if (hash.kind === 'approve') actor.send({ type: 'REQUEST.FOCUS', key: hash.key });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [actor]);

  const errorText = view.error ? <Alert tone="error">{i18n._(companionErrorMessages[view.error])}</Alert> : null;
  const noticeText = view.notice ? (
    <div className="companion-notice">
      <Alert tone={view.notice === 'approved' ? 'success' : 'info'}>{i18n._(companionNoticeMessages[view.notice])}</Alert>
      <Button variant="link" onClick={() => actor.send({ type: 'NOTICE.DISMISS' })}>
        {t`Dismiss`}
      </Button>
    </div>
  ) : null;

  if (view.screen === 'link') {
    return (
      <LinkForm
        initialCode={view.linkCodeText}
        deviceType={view.deviceType}
        busy={view.linking}
        error={view.error}
        notice={noticeText}
        onType={(deviceType) => actor.send({ type: 'TYPE.CHOOSE', deviceType })}
        onSubmit={(linkCode, name) => actor.send({ type: 'LINK.SUBMIT', linkCode, name })}
      />
    );
  }

  // Each screen's root carries a key of its own: React then mounts a new screen instead of reusing
  // the previous one's elements, so its StepHeading takes focus (the button just pressed is gone).
  if (view.screen === 'connecting') {
    return (
      <section key="connecting" aria-labelledby="companion-connecting">
        <StepHeading id="companion-connecting">{t`Connecting`}</StepHeading>
        <Spinner label={t`Connecting to your bank…`} />
      </section>
    );
  }

  if (view.screen === 'offline') {
    return (
      <section key="offline" aria-labelledby="companion-offline">
        <StepHeading id="companion-offline">{t`Not connected`}</StepHeading>
        {errorText}
        <Button className="companion-big" onClick={() => actor.send({ type: 'RETRY' })}>
          {t`Try again`}
        </Button>
      </section>
    );
  }

  if (view.screen === 'confirmUnlink') {
    return (
      <section key="confirmUnlink" aria-labelledby="companion-unlink">
        <StepHeading id="companion-unlink">{t`Unlink this phone?`}</StepHeading>
        {errorText}
        <p>{t`This phone will no longer approve sign-ins for ${view.login ?? ''}. You can link it again from the settings of your online banking.`}</p>
        <div className="companion-actions">
          <Button className="companion-big" busy={view.unlinking} onClick={() => actor.send({ type: 'UNLINK.CONFIRM' })}>
            {t`Unlink`}
          </Button>
          <Button className="companion-big" variant="secondary" disabled={view.unlinking} onClick={() => actor.send({ type: 'UNLINK.CANCEL' })}>
            {t`Keep linked`}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <section key="requests" aria-labelledby="companion-requests">
      <StepHeading id="companion-requests">{t`Approval requests`}</StepHeading>
      <p className="companion-who">{t`Linked to ${view.login ?? ''} as “${view.deviceName ?? ''}”.`}</p>
      {errorText}
      {noticeText}
      {view.requests.length === 0 ? (
        <p role="status">{t`No requests right now. Keep this page open: a request appears here when you sign in or change your two-step verification.`}</p>
      ) : (
        <ul className="companion-requests" aria-label={t`Pending requests`}>
          {view.requests.map((request) => (
            <RequestCard
              key={request.key}
              request={request}
              nowMs={nowMs()}
              disabled={!view.canAnswer}
              answering={view.answering?.key === request.key ? view.answering.result : null}
              onAnswer={(result) => actor.send({ type: 'REQUEST.ANSWER', key: request.key, result })}
            />
          ))}
        </ul>
      )}
      <div className="companion-footer">
        <Button variant="secondary" disabled={!view.canAnswer} onClick={() => actor.send({ type: 'UNLINK.START' })}>
          {t`Unlink this phone`}
        </Button>
      </div>
    </section>
  );
}

function LinkForm(props: {
  initialCode: string;
  deviceType: DeviceType;
  busy: boolean;
  error: CompanionErrorCode | null;
  notice: ReactNode;
  onType(type: DeviceType): void;
  onSubmit(code: string, name: string): void;
}) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState(props.initialCode);
  const [name, setName] = useState('');
  const fieldError = props.error === 'invalidCode' || props.error === 'codeRejected' ? i18n._(companionErrorMessages[props.error]) : undefined;
  const otherError = props.error && !fieldError ? <Alert tone="error">{i18n._(companionErrorMessages[props.error])}</Alert> : null;
  return (
    <section aria-labelledby="companion-link">
      <StepHeading id="companion-link">{t`Link this phone`}</StepHeading>
      {props.notice}
      <p>{t`In your online banking, open Settings and choose “Link a phone”. Scan the QR code with this phone, or type the link code shown there.`}</p>
      {otherError}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit(code, name);
        }}
      >
        <TextField
          label={t`Link code`}
          name="linkCode"
          value={code}
          onChange={setCode}
          hint={t`For example 42-KX7P9QMA`}
          error={fieldError}
          autoComplete="one-time-code"
          maxLength={32}
          required
        />
        <TextField label={t`Name of this phone (optional)`} name="deviceName" value={name} onChange={setName} maxLength={60} autoComplete="off" />
        <fieldset className="companion-type">
          <legend>{t`This phone is`}</legend>
          {DEVICE_TYPES.map((type) => (
            <label key={type} className="companion-radio">
              <input type="radio" name="deviceType" value={type} checked={props.deviceType === type} onChange={() => props.onType(type)} />
              {DEVICE_TYPE_NAMES[type]}
            </label>
          ))}
        </fieldset>
        <Button type="submit" className="companion-big" busy={props.busy}>
          {t`Link this phone`}
        </Button>
      </form>
    </section>
  );
}

/** Product names, the same in every language (not messages to translate). */

function RequestCard(props: { request: ApprovalRequest; nowMs: number; disabled: boolean; answering: boolean | null; onAnswer(result: boolean): void }) {
  const { t, i18n } = useLingui();
  const { request } = props;
  const headingId = useId();
  const title = request.kind === 'login' ? t`Sign-in request` : request.kind === 'transfer' ? t`Payment request` : t`Two-step verification change`;
  const lang = i18n.locale as UiLang;
  const transfer = request.kind === 'transfer' ? request.transfer : undefined;
  const modeNames: Record<number, string> = { 1: t`approval on a linked phone`, 2: t`SMS code`, 3: t`authenticator app`, 4: t`approval code` };
  const country = countryName(request.countryCode, i18n.locale);
  const when = formatDateTime(request.createdAt, languageTags[i18n.locale as UiLang] ?? i18n.locale, { seconds: true });
  const expired = Date.parse(request.expiresAt) <= props.nowMs;
  return (
    <li className="companion-request" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <dl>
        {request.kind === 'twoStepMode' && request.mode !== undefined ? (
          <>
            <dt>{t`New method`}</dt>
            <dd>{modeNames[request.mode] ?? String(request.mode)}</dd>
          </>
        ) : null}
        {transfer ? (
          <>
            <dt>{t`Amount`}</dt>
            <dd>{formatMoney(transfer.amount, transfer.currency, lang)}</dd>
            {transfer.fee !== undefined && !/^0(\.0+)?$/.test(transfer.fee) ? (
              <>
                <dt>{t`Fee`}</dt>
                <dd>{formatMoney(transfer.fee, transfer.currency, lang)}</dd>
              </>
            ) : null}
            <dt>{t`To`}</dt>
            <dd>{transfer.payeeName}</dd>
          </>
        ) : null}
        <dt>{t`When`}</dt>
        <dd>{when}</dd>
        <dt>{t`Address`}</dt>
        <dd>{country ? `${request.ip} (${country})` : request.ip}</dd>
        {request.userAgent ? (
          <>
            <dt>{t`Browser`}</dt>
            <dd>{describeUserAgent(request.userAgent)}</dd>
          </>
        ) : null}
      </dl>
      {expired ? (
        <p>{t`This request has expired.`}</p>
      ) : (
        <div className="companion-actions">
          <Button className="companion-big" busy={props.answering === true} disabled={props.disabled} onClick={() => props.onAnswer(true)}>
            {t`Approve`}
          </Button>
          <Button className="companion-big" variant="secondary" busy={props.answering === false} disabled={props.disabled} onClick={() => props.onAnswer(false)}>
            {t`Decline`}
          </Button>
        </div>
      )}
    </li>
  );
}

function countryName(code: string | null, locale: string): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    return new Intl.DisplayNames([locale === 'au' ? 'en-AU' : locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

