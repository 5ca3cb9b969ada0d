/**
 * "Open an account" (issue 13): choose a currency the customer has no account in, check, open.
 * Fiat opens an account (addCurrency), crypto a wallet with its receiving address (createWallet).
 * A thin view of machines/open-account: reads open-account.select.ts, sends events. On success the
 * route refreshes the accounts and goes home, where the new account shows.
 */
import { useEffect, useMemo, useRef, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useFlowActor } from '../../lib/actors.ts';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import type { CurrencyCode } from '../../../api/transfers.ts';
import type { OpenAccountMachine, OpenedAccount } from '../../../machines/open-account/open-account.machine.ts';
import { selectOpenAccountView, type OpenAccountView } from '../../../machines/open-account/open-account.select.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { MethodCallError, describeFailure } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { liveOpenAccountMachine } from './actors.ts';
import { isCrypto, openableCurrencies } from './choices.ts';
import { accountsQuery, moneyPermissionsQuery } from './queries.ts';
import './accounts.css';

/** The currency's name in the UI language (Intl knows fiat; the two crypto currencies are proper names). */
function useCurrencyName(): (code: CurrencyCode) => string {
  const lang = getUiLanguage();
  return useMemo(() => {
    const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([lang === 'au' ? 'en-AU' : lang], { type: 'currency' }) : null;
    return (code: CurrencyCode) => {
      if (code === 'BTC') return 'Bitcoin';
      if (code === 'ETH') return 'Ether';
      const name = names?.of(code);
      return name && name !== code ? name.charAt(0).toLocaleUpperCase(lang) + name.slice(1) : code;
    };
  }, [lang]);
}

export interface OpenAccountPageProps {
  actingCustomerId: number | null;
  /** the user may open accounts for the customer acted for (access.ts selectCanOpenAccount) */
  canOpen: boolean;
  onOpened(account: OpenedAccount): void;
  /** a link home (the route passes the router's Link) */
  homeLink: ReactNode;
}

/** The page: reads what the customer holds, then runs the flow over the currencies left. */
export function OpenAccountPage({ actingCustomerId, canOpen, onOpened, homeLink }: OpenAccountPageProps) {
  const { t } = useLingui();
  const accounts = useQuery({ ...accountsQuery(actingCustomerId), enabled: canOpen });
  const permissions = useQuery({ ...moneyPermissionsQuery(actingCustomerId), enabled: canOpen });
  if (!canOpen) {
    return (
      <div className="open-account">
        <StepHeading>{t`Open an account`}</StepHeading>
        <Alert tone="warning" title={t`You cannot open accounts for this company.`}>
          <p>{t`Ask the account's owner or your provider's support to allow it.`}</p>
        </Alert>
      </div>
    );
  }
  if (accounts.isPending || permissions.isPending) {
    return (
      <div className="open-account">
        <StepHeading>{t`Open an account`}</StepHeading>
        <Spinner label={t`Loading your accounts`} />
      </div>
    );
  }
  if (accounts.isError || permissions.isError) {
    const error = accounts.error ?? permissions.error;
    return (
      <div className="open-account">
        <StepHeading>{t`Open an account`}</StepHeading>
        <Alert tone="error" title={t`We could not load your accounts.`}>
          {error instanceof MethodCallError ? <p>{describeFailure(error.failure)}</p> : null}
        </Alert>
        <Button
          onClick={() => {
            void accounts.refetch();
            void permissions.refetch();
          }}
        >
          {t`Try again`}
        </Button>
      </div>
    );
  }
  return <OpenAccountFlow choices={openableCurrencies(accounts.data, permissions.data)} onOpened={onOpened} homeLink={homeLink} />;
}

export interface OpenAccountFlowProps {
  choices: readonly CurrencyCode[];
  onOpened(account: OpenedAccount): void;
  homeLink: ReactNode;
  /** the machine; tests pass one with a test-double actor */
  logic?: OpenAccountMachine;
}

export function OpenAccountFlow({ choices, onOpened, homeLink, logic = liveOpenAccountMachine }: OpenAccountFlowProps) {
  // The choices are read once: the flow's own success changes the accounts it was computed from.
  const actor = useFlowActor(logic, { input: { choices } });
  return <OpenAccountSteps actor={actor} onOpened={onOpened} homeLink={homeLink} />;
}

function OpenAccountSteps({ actor, onOpened, homeLink }: { actor: ActorRefFrom<OpenAccountMachine>; onOpened(account: OpenedAccount): void; homeLink: ReactNode }) {
  const { t } = useLingui();
  const view = useSelector(actor, selectOpenAccountView);
  const reported = useRef(false);
  useEffect(() => {
    if (view.step !== 'done' || !view.opened || reported.current) return;
    reported.current = true;
    onOpened(view.opened);
  }, [view.step, view.opened, onOpened]);

  switch (view.step) {
    case 'nothingToOpen':
      return (
        <div className="open-account">
          <StepHeading>{t`Open an account`}</StepHeading>
          <Alert tone="info" title={t`You have an account in every currency we offer.`}>
            <p>{homeLink}</p>
          </Alert>
        </div>
      );
    case 'choosing':
      return <ChooseStep view={view} actor={actor} />;
    case 'confirming':
    case 'opening':
    case 'failed':
      return <ConfirmStep view={view} actor={actor} />;
    case 'done':
      return (
        <div className="open-account">
          <StepHeading>{t`Your account is open`}</StepHeading>
          <Spinner label={t`Taking you to your accounts`} />
        </div>
      );
  }
}

function ChooseStep({ view, actor }: { view: OpenAccountView; actor: ActorRefFrom<OpenAccountMachine> }) {
  const { t } = useLingui();
  const name = useCurrencyName();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'CONTINUE' });
  };
  return (
    <div className="open-account">
      <StepHeading>{t`Open an account`}</StepHeading>
      <form className="card open-account-card" onSubmit={submit} noValidate>
        <RadioGroup
          legend={t`Currency`}
          name="currency"
          hint={t`You can hold one account in each currency.`}
          value={view.selected ?? ''}
          onChange={(v) => actor.send({ type: 'CURRENCY.SELECT', currency: v as CurrencyCode })}
          options={view.choices.map((code) => {
            const currencyName = name(code);
            return {
              value: code,
              label: `${currencyName} (${code})`,
              hint: isCrypto(code) ? t`A crypto wallet with its own receiving address` : t`An account to hold, receive and send ${code}`,
            };
          })}
          error={view.error?.code === 'required' ? t`Choose a currency.` : undefined}
        />
        <div className="btn-group">
          <Button type="submit">{t`Continue`}</Button>
        </div>
      </form>
    </div>
  );
}

function ConfirmStep({ view, actor }: { view: OpenAccountView; actor: ActorRefFrom<OpenAccountMachine> }) {
  const { t } = useLingui();
  const name = useCurrencyName();
  const code = view.selected!;
  const currencyName = name(code);
  const crypto = isCrypto(code);
  const error = view.error;
  return (
    <div className="open-account">
      <StepHeading>{crypto ? t`Create a ${currencyName} wallet?` : t`Open a ${currencyName} account?`}</StepHeading>
      <section className="card open-account-card">
        <dl className="open-account-summary">
          <dt>{t`Currency`}</dt>
          <dd>{`${currencyName} (${code})`}</dd>
          <dt>{t`Kind`}</dt>
          <dd>{crypto ? t`Crypto wallet` : t`Payment account`}</dd>
          <dt>{t`Balance`}</dt>
          <dd>{t`It opens empty: add money to it or convert from another account.`}</dd>
        </dl>
        {view.step === 'failed' && error ? (
          <Alert tone="error" title={crypto ? t`The wallet was not created.` : t`The account was not opened.`}>
            <p>{error.code === 'failed' ? describeFailure(error.failure) : t`We got no answer from the server. Try again: only one account is opened.`}</p>
          </Alert>
        ) : null}
        <div className="btn-group">
          {view.step === 'failed' ? (
            <Button onClick={() => actor.send({ type: 'RETRY' })}>{t`Try again`}</Button>
          ) : (
            <Button onClick={() => actor.send({ type: 'CONFIRM' })} busy={view.busy}>
              {crypto ? t`Create the wallet` : t`Open the account`}
            </Button>
          )}
          <Button variant="secondary" onClick={() => actor.send({ type: 'BACK' })} disabled={view.busy}>
            {t`Back`}
          </Button>
        </div>
      </section>
    </div>
  );
}
