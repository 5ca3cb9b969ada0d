/**
 * Applying for a card (/add-card, document 2 §2, §3): the products grouped physical, virtual and
 * debit with their fees, limits and why one cannot be chosen; for a card that ships, the address
 * and the shipping option (fee, delivery time, why one cannot be chosen) and, for a debit card, the
 * account it draws on; for a virtual card, its optional name; the account the fees come from; the
 * review of every fee (charged now and later); the approval (the one approval view); the card
 * applied for. A thin view of the card application machine: reads card-application.select.ts,
 * sends events. Each step's heading takes the focus (StepHeading).
 */
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { CardStatus, type CardKind, type CardProduct, type PRODUCT_DISABLED_REASONS, type SHIPPING_DISABLED_REASONS } from '../../../api/cards.ts';
import type { ApprovalMachine } from '../../../machines/approval/approval.machine.ts';
import { CARD_NAME_MAX_LENGTH, type CardApplicationMachine, type ShippingAddress } from '../../../machines/card-application/card-application.machine.ts';
import { errorsOn, feeAmount, selectApplicationView, type ApplicationView } from '../../../machines/card-application/card-application.select.ts';
import { useFlowActor } from '../../lib/actors.ts';
import { describeFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { RadioGroup } from '../../ui/choice-fields.tsx';
import { ProgressSteps } from '../../ui/progress-steps.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useAccountLabel } from '../../lib/account-label.ts';
import type { TransferActorDeps } from '../transfers/actors.ts';
import { PENDING_PAYMENTS_PATH, SentForApprovalNote, useSentForApprovalTitle } from '../../lib/sent-for-approval.tsx';
import { ApprovalView } from '../transfers/approval-view.tsx';
import { money } from '../transfers/fields.tsx';
import { createCardApplicationLogic } from './apply-actors.ts';
import '../transfers/transfers.css';

type ApplyActor = ActorRefFrom<CardApplicationMachine>;

/** The pages the application links to. */
export type ApplyTarget =
  | { page: 'card'; accountId: number }
  | { page: 'confirm'; cardId: number }
  | { page: 'addMoney' }
  | { page: 'openAccount' }
  | { page: 'addresses' }
  | { page: 'verification' }
  | { page: 'history' }
  /** where the company's checkers decide a card order waiting for them (maker-checker) */
  | { page: 'pendingPayments' };
/** A link to another page of the app: the route passes one made with the router's Link; a plain anchor without one (tests). */
export type ApplyLink = (props: { target: ApplyTarget; className?: string; children: ReactNode }) => ReactNode;

export function hrefOf(target: ApplyTarget): string {
  switch (target.page) {
    case 'card':
      return `/cards/${target.accountId}`;
    case 'confirm':
      return `/confirm-card/${target.cardId}`;
    case 'addMoney':
      return '/add-money';
    case 'openAccount':
      return '/accounts/open';
    case 'addresses':
      return '/profile#address';
    case 'verification':
      return '/unverified-account';
    case 'history':
      return '/history';
    case 'pendingPayments':
      return PENDING_PAYMENTS_PATH;
  }
}
export const AnchorLink: ApplyLink = ({ target, className, children }) => (
  <a href={hrefOf(target)} className={className}>
    {children}
  </a>
);

export interface ApplyPageOptions {
  /** the user may open an account for the customer acted for: with no account in a product's currency they are offered to */
  canOpenAccount?: boolean;
  link?: ApplyLink;
}

/** The route's entry: the machine with the real actors. */
export function ApplyForCardPage({ deps, canOpenAccount, link }: { deps: TransferActorDeps } & ApplyPageOptions) {
  const logic = useMemo(() => createCardApplicationLogic(deps), [deps]);
  const actor = useFlowActor(logic);
  return <ApplyView actor={actor} canOpenAccount={canOpenAccount} link={link} />;
}

function useKindNames(): Record<CardKind, string> {
  const { t } = useLingui();
  return { physical: t`Physical cards`, virtual: t`Virtual cards`, debit: t`Debit cards` };
}

/** A product's name: its scheme, kind and currency ("Visa physical card in EUR"). */
export function useProductName(): (p: CardProduct) => string {
  const { t } = useLingui();
  return (p) => {
    const brand = p.cardBrand === 'VISA' ? 'Visa' : 'Mastercard';
    const currency = p.currencyCode;
    if (p.kind === 'physical') return t`${brand} physical card in ${currency}`;
    if (p.kind === 'virtual') return t`${brand} virtual card in ${currency}`;
    return t`${brand} debit card in ${currency}`;
  };
}

function useProductReasons(): (reason: (typeof PRODUCT_DISABLED_REASONS)[number], currency: string) => string {
  const { t } = useLingui();
  return (reason, currency) => {
    if (reason === 'NO_ACCOUNT_IN_CURRENCY') return t`You need an account in ${currency} to pay for this card.`;
    if (reason === 'LIMIT_REACHED') return t`You already hold as many of these cards as allowed.`;
    return t`Verify your identity to apply for this card.`;
  };
}

function useShippingReasons(): Record<(typeof SHIPPING_DISABLED_REASONS)[number], string> {
  const { t } = useLingui();
  return {
    NOT_AVAILABLE_IN_COUNTRY: t`Not available in your country.`,
    ADDRESS_NOT_CONFIRMED: t`Available once your address is confirmed.`,
  };
}

function addressLine(a: ShippingAddress): string {
  return [a.address1, a.address2, `${a.postalCode} ${a.city}`, a.countryCode].filter((part) => part.trim() !== '').join(', ');
}

/** The fields' errors: the platform's (VF) first, else what the customer has not chosen yet. */
function fieldError(view: ApplicationView, param: string, missing: boolean, missingText: string): string | undefined {
  const platform = errorsOn(view.errors, param)[0];
  if (platform) return validationMessage(platform);
  return view.missing && missing ? missingText : undefined;
}

export function ApplyView({ actor, canOpenAccount = false, link = AnchorLink }: { actor: ApplyActor } & ApplyPageOptions) {
  const { t } = useLingui();
  const view = useSelector(actor, selectApplicationView);
  const ships = view.product ? view.product.kind !== 'virtual' : true;
  const sentForApproval = useSentForApprovalTitle();
  // ordered by a right-3 user for a company: once its status is read, the card waits for the company's checker
  const awaitingChecker = view.step === 'done' && !view.checking && view.cardStatus === CardStatus.pendingApproval;

  let body: ReactNode;
  switch (view.step) {
    case 'loading':
      body = <Spinner label={t`Loading the cards offered to you`} />;
      break;
    case 'loadFailed':
      body = (
        <>
          <Alert tone="error" title={t`We could not load the cards offered to you.`}>
            {view.loadFailure?.ok === false && view.loadFailure.code === 'failed' ? <p>{describeFailure(view.loadFailure.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'LOAD.RETRY' })}>{t`Try again`}</Button>
        </>
      );
      break;
    case 'choosingProduct':
      body = <ProductStep actor={actor} view={view} />;
      break;
    case 'delivery':
      body = <DeliveryStep actor={actor} view={view} link={link} />;
      break;
    case 'naming':
      body = <NamingStep actor={actor} view={view} />;
      break;
    case 'feeAccount':
      body = <FeeAccountStep actor={actor} view={view} link={link} canOpenAccount={canOpenAccount} />;
      break;
    case 'reviewing':
      body = <ReviewStep actor={actor} view={view} />;
      break;
    case 'approving':
      body = (
        <>
          <Charged view={view} />
          {view.approval ? <ApprovalView actor={view.approval as ActorRefFrom<ApprovalMachine>} /> : <Spinner label={t`Finishing`} />}
        </>
      );
      break;
    case 'done':
      body = <DoneStep actor={actor} view={view} link={link} />;
      break;
    case 'failed':
      body = (
        <>
          <Alert tone="error" title={view.outcome?.reason === 'expired' ? t`The approval time ran out.` : t`The card's fees were not approved.`}>
            <p>{t`No card was made and nothing was charged.`}</p>
            {view.outcome?.failure ? <p>{describeFailure(view.outcome.failure)}</p> : null}
          </Alert>
          <Button onClick={() => actor.send({ type: 'APPLICATION.NEW' })}>{t`Start again`}</Button>
        </>
      );
      break;
  }
  const titles: Record<ApplicationView['step'], string> = {
    loading: t`Apply for a card`,
    loadFailed: t`Apply for a card`,
    choosingProduct: t`Choose a card`,
    delivery: t`Delivery`,
    naming: t`Name your card`,
    feeAccount: t`Pay the fees from`,
    reviewing: t`Review your application`,
    approving: t`Approve the card's fees`,
    done: awaitingChecker ? sentForApproval : t`Card applied for`,
    failed: t`Card not applied for`,
  };
  const progress = ['choosingProduct', 'delivery', 'naming', 'feeAccount', 'reviewing'].includes(view.step);
  return (
    <div className="transfer-page card-apply-page">
      {progress ? (
        <ProgressSteps
          label={t`Your application`}
          doneText={t`done`}
          current={view.step}
          steps={[
            { id: 'choosingProduct', label: t`Card` },
            ships ? { id: 'delivery', label: t`Delivery` } : { id: 'naming', label: t`Name` },
            { id: 'feeAccount', label: t`Fees` },
            { id: 'reviewing', label: t`Review` },
          ]}
        />
      ) : null}
      {/* a new heading for each step: it takes the focus (focus management on steps) */}
      <StepHeading key={view.step}>{titles[view.step]}</StepHeading>
      {body}
    </div>
  );
}

function ProductStep({ actor, view }: { actor: ApplyActor; view: ApplicationView }) {
  const { t } = useLingui();
  const kinds = useKindNames();
  const productName = useProductName();
  const reasons = useProductReasons();
  const refused = errorsOn(view.errors, 'type');
  if (view.groups.length === 0) return <Alert tone="info" title={t`No card is offered in your country yet.`} />;
  return (
    <>
      <p>{t`Choose the card you want. Its fees are charged from one of your accounts in the card's currency.`}</p>
      {refused.length > 0 ? (
        <Alert tone="error" title={t`This card cannot be applied for.`}>
          {refused.map((e, i) => (
            <p key={i}>{validationMessage(e)}</p>
          ))}
        </Alert>
      ) : null}
      {view.groups.map((group) => (
        <section key={group.kind} aria-labelledby={`card-kind-${group.kind}`}>
          <h2 id={`card-kind-${group.kind}`}>{kinds[group.kind]}</h2>
          {group.products.map((p) => {
            const name = productName(p);
            const open = p.disabledReasons.length === 0;
            const currency = p.fees.currency;
            return (
              <Card key={p.type} as="article" title={name} headingLevel={3} action={open ? null : <Badge tone="neutral">{t`Not available`}</Badge>}>
                <dl className="transfer-summary">
                  <dt>{t`Issue fee`}</dt>
                  <dd>{money(feeAmount(p.fees.issue), currency)}</dd>
                  <dt>{t`Annual fee`}</dt>
                  <dd>{money(feeAmount(p.fees.annual), currency)}</dd>
                  <dt>{t`Monthly fee`}</dt>
                  <dd>{money(feeAmount(p.fees.monthly), currency)}</dd>
                  <dt>{t`Limit per payment`}</dt>
                  <dd>{money(p.limits.perPayment, p.currencyCode)}</dd>
                  <dt>{t`Limit per day`}</dt>
                  <dd>{money(p.limits.perDay, p.currencyCode)}</dd>
                </dl>
                {p.disabledReasons.map((reason) => (
                  <p key={reason} className="field-hint">
                    {reasons(reason, p.currencyCode)}
                  </p>
                ))}
                {/* the visible words start the button's name (WCAG 2.5.3); the product tells the buttons apart
                    (an aria-label: a hidden span's text is joined to the visible words with a space, "card : Visa") */}
                <Button disabled={!open} aria-label={t`Choose this card: ${name}`} onClick={() => actor.send({ type: 'PRODUCT.CHOOSE', productType: p.type })}>
                  {t`Choose this card`}
                </Button>
              </Card>
            );
          })}
        </section>
      ))}
    </>
  );
}

function StepButtons({ actor, next }: { actor: ApplyActor; next?: boolean }) {
  const { t } = useLingui();
  return (
    <ButtonGroup stackOnMobile>
      {next === false ? null : <Button type="submit">{t`Continue`}</Button>}
      <Button variant="secondary" onClick={() => actor.send({ type: 'STEP.BACK' })}>
        {t`Back`}
      </Button>
    </ButtonGroup>
  );
}

function ChosenProduct({ view }: { view: ApplicationView }) {
  const { t } = useLingui();
  const productName = useProductName();
  if (!view.product) return null;
  const name = productName(view.product);
  return <p>{t`Your card: ${name}.`}</p>;
}

function DeliveryStep({ actor, view, link: PageLink }: { actor: ApplyActor; view: ApplicationView; link: ApplyLink }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const shippingReasons = useShippingReasons();
  const product = view.product!;
  const f = view.form;
  const option = view.shippingOption;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'STEP.CONTINUE' });
      }}
    >
      <ChosenProduct view={view} />
      {view.addresses.length === 0 ? (
        <Alert tone="info" title={t`You have no address to ship the card to.`}>
          <p>
            <PageLink target={{ page: 'addresses' }}>{t`Add an address in your profile`}</PageLink>
          </p>
        </Alert>
      ) : (
        <RadioGroup
          legend={t`Ship to`}
          name="addressId"
          value={f.addressId === null ? '' : String(f.addressId)}
          onChange={(value) => actor.send({ type: 'ADDRESS.CHOOSE', addressId: Number(value) })}
          options={view.addresses.map((a) => ({ value: String(a.addressId), label: addressLine(a), hint: a.confirmed ? undefined : t`Not confirmed yet` }))}
          error={fieldError(view, 'addressId', f.addressId === null, t`Choose the address the card ships to.`)}
        />
      )}
      <RadioGroup
        legend={t`Shipping`}
        name="shippingOptionId"
        value={f.shippingOptionId === null ? '' : String(f.shippingOptionId)}
        onChange={(value) => actor.send({ type: 'SHIPPING.CHOOSE', shippingOptionId: Number(value) })}
        options={product.shippingOptions.map((o) => {
          const days = o.deliveryTime;
          const fee = money(feeAmount(o.fee), o.currency);
          const label = o.type === 'express' ? t`Express · ${fee}` : t`Standard · ${fee}`;
          const hint = o.disabledReasons.length > 0 ? o.disabledReasons.map((r) => shippingReasons[r]).join(' ') : t`Arrives within ${days} business days.`;
          return { value: String(o.id), label, hint, disabled: o.disabledReasons.length > 0 };
        })}
        error={fieldError(view, 'shippingOptionId', option === null || option.disabledReasons.length > 0, t`Choose how the card ships.`)}
      />
      {product.kind === 'debit' ? (
        view.accounts.length === 0 ? (
          <Alert tone="info" title={t`A debit card draws on one of your accounts in ${product.currencyCode}: you have none yet.`} />
        ) : (
          <RadioGroup
            legend={t`The account the card draws on`}
            name="settlementAccountId"
            value={f.settlementAccountId === null ? '' : String(f.settlementAccountId)}
            onChange={(value) => actor.send({ type: 'SETTLEMENT.CHOOSE', accountId: Number(value) })}
            options={view.accounts.map((a) => ({ value: String(a.accountId), label: `${accountLabel(a)} · ${money(a.balance, a.currency)}` }))}
            error={fieldError(view, 'settlementAccountId', view.settlementAccount === null, t`Choose the account the card draws on.`)}
          />
        )
      ) : null}
      {/* no address (or, for a debit card, no account to draw on): nothing to continue with until there is one */}
      <StepButtons actor={actor} next={view.addresses.length > 0 && (product.kind !== 'debit' || view.accounts.length > 0)} />
    </form>
  );
}

function NamingStep({ actor, view }: { actor: ApplyActor; view: ApplicationView }) {
  const { t } = useLingui();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'STEP.CONTINUE' });
      }}
    >
      <ChosenProduct view={view} />
      <TextField
        label={t`Card name (optional)`}
        name="cardAliasName"
        value={view.form.cardAliasName}
        maxLength={CARD_NAME_MAX_LENGTH}
        hint={t`A name helps you tell your cards apart, such as Online shopping.`}
        onChange={(value) => actor.send({ type: 'NAME.CHANGE', cardAliasName: value })}
        error={fieldError(view, 'cardAliasName', false, '')}
      />
      <StepButtons actor={actor} />
    </form>
  );
}

function FeeAccountStep({ actor, view, link: PageLink, canOpenAccount }: { actor: ApplyActor; view: ApplicationView; link: ApplyLink; canOpenAccount: boolean }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const currency = view.product!.fees.currency;
  if (view.accounts.length === 0)
    return (
      <form noValidate onSubmit={(e) => e.preventDefault()}>
        <Alert tone="info" title={t`You have no account in ${currency} to pay the card's fees from.`}>
          <p>{canOpenAccount ? t`Open an account in ${currency} and add money to it, then apply again.` : t`Add money to an account in ${currency}, then apply again.`}</p>
          <ButtonGroup stackOnMobile>
            {canOpenAccount ? (
              <PageLink target={{ page: 'openAccount' }} className="btn btn-primary">
                {t`Open an account`}
              </PageLink>
            ) : null}
            <PageLink target={{ page: 'addMoney' }} className="btn btn-secondary">
              {t`Add money`}
            </PageLink>
          </ButtonGroup>
        </Alert>
        <StepButtons actor={actor} next={false} />
      </form>
    );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'STEP.CONTINUE' });
      }}
    >
      <RadioGroup
        legend={t`The account the fees are charged from`}
        name="feeAccountId"
        value={view.form.feeAccountId === null ? '' : String(view.form.feeAccountId)}
        onChange={(value) => actor.send({ type: 'FEE_ACCOUNT.CHOOSE', accountId: Number(value) })}
        options={view.accounts.map((a) => ({ value: String(a.accountId), label: `${accountLabel(a)} · ${money(a.balance, a.currency)}` }))}
        error={fieldError(view, 'feeAccountId', false, '')}
      />
      <p className="field-hint">
        <PageLink target={{ page: 'addMoney' }}>{t`Add money to an account`}</PageLink>
      </p>
      <StepButtons actor={actor} />
    </form>
  );
}

function ReviewStep({ actor, view }: { actor: ApplyActor; view: ApplicationView }) {
  const { t } = useLingui();
  const accountLabel = useAccountLabel();
  const productName = useProductName();
  const product = view.product!;
  const fees = view.fees!;
  const option = view.shippingOption;
  const name = view.form.cardAliasName.trim();
  return (
    <>
      {view.notice === 'approvalCanceled' ? <Alert tone="info" title={t`You canceled the approval: no card was made and nothing was charged.`} /> : null}
      {view.unanswered ? <Alert tone="error" title={t`We did not get an answer. Apply again: you will not get two cards nor pay twice.`} /> : null}
      {view.failure ? (
        <Alert tone="error" title={t`The application was not accepted.`}>
          <p>{describeFailure(view.failure)}</p>
        </Alert>
      ) : null}
      <Card title={t`Your card`}>
        <dl className="transfer-summary">
          <dt>{t`Card`}</dt>
          <dd>{productName(product)}</dd>
          {view.address ? (
            <>
              <dt>{t`Ships to`}</dt>
              <dd>{addressLine(view.address)}</dd>
            </>
          ) : null}
          {option ? (
            <>
              <dt>{t`Shipping`}</dt>
              <dd>{option.type === 'express' ? t`Express, within ${option.deliveryTime} business days` : t`Standard, within ${option.deliveryTime} business days`}</dd>
            </>
          ) : null}
          {view.settlementAccount ? (
            <>
              <dt>{t`Draws on`}</dt>
              <dd>{accountLabel(view.settlementAccount)}</dd>
            </>
          ) : null}
          {product.kind === 'virtual' ? (
            <>
              <dt>{t`Name`}</dt>
              <dd>{name === '' ? t`No name` : name}</dd>
            </>
          ) : null}
          <dt>{t`Fees from`}</dt>
          <dd>{view.feeAccount ? `${accountLabel(view.feeAccount)} · ${money(view.feeAccount.balance, view.feeAccount.currency)}` : null}</dd>
        </dl>
      </Card>
      <Card title={t`Charged now`}>
        <dl className="transfer-summary">
          <dt>{t`Issue fee`}</dt>
          <dd>{money(fees.issue, fees.currency)}</dd>
          {fees.shipping !== null ? (
            <>
              <dt>{t`Shipping fee`}</dt>
              <dd>{money(fees.shipping, fees.shippingCurrency!)}</dd>
            </>
          ) : null}
          <dt>{t`Total now`}</dt>
          <dd className="transfer-summary-total">{money(fees.totalNow, fees.currency)}</dd>
        </dl>
      </Card>
      <Card title={t`Charged later`}>
        <dl className="transfer-summary">
          <dt>{t`Annual fee`}</dt>
          <dd>{money(fees.annual, fees.currency)}</dd>
          <dt>{t`Monthly fee`}</dt>
          <dd>{money(fees.monthly, fees.currency)}</dd>
        </dl>
      </Card>
      <ButtonGroup stackOnMobile>
        <Button busy={view.submitting} disabled={!view.canSubmit} onClick={() => actor.send({ type: 'SUBMIT' })}>
          {t`Apply for the card`}
        </Button>
        <Button variant="secondary" disabled={view.submitting} onClick={() => actor.send({ type: 'STEP.BACK' })}>
          {t`Back`}
        </Button>
      </ButtonGroup>
    </>
  );
}

/** What the application charges (while it is approved). */
function Charged({ view }: { view: ApplicationView }) {
  const { t } = useLingui();
  const applied = view.applied;
  if (!applied) return null;
  return <p>{t`The card's fees of ${money(applied.amount, applied.currency)} wait for your approval.`}</p>;
}

function DoneStep({ actor, view, link: PageLink }: { actor: ApplyActor; view: ApplicationView; link: ApplyLink }) {
  const { t } = useLingui();
  const applied = view.applied;
  if (view.checking || !applied) return <Spinner label={t`Finishing`} />;
  const accountId = applied.accountId;
  const virtual = view.product?.kind === 'virtual';
  const days = view.shippingOption?.deliveryTime;
  let message: ReactNode;
  // ordered by a right-3 user for a company: its fee waits for the company's checker, the card for it
  if (view.cardStatus === CardStatus.pendingApproval) message = <SentForApprovalNote link={({ children }) => <PageLink target={{ page: 'pendingPayments' }}>{children}</PageLink>} />;
  else if (virtual && view.active)
    message = (
      <Alert tone="success" title={t`Your virtual card is ready.`}>
        <p>{t`You can use it as soon as you load money onto it.`}</p>
      </Alert>
    );
  else if (view.awaitingConfirmation)
    message = (
      <Alert tone="warning" title={t`Confirm your card so that it is made.`}>
        <p>{t`We make and ship the card once you confirm it.`}</p>
        <PageLink target={{ page: 'confirm', cardId: accountId }} className="btn btn-primary">
          {t`Confirm your card`}
        </PageLink>
      </Alert>
    );
  else if (virtual)
    message = (
      <Alert tone="success" title={t`Your virtual card is being set up.`}>
        <p>{t`It is ready to use in a few moments.`}</p>
      </Alert>
    );
  else
    message = (
      <Alert tone="success" title={t`Your card is being produced.`}>
        <p>{days !== undefined ? t`It is then shipped and arrives within ${days} business days.` : t`It is then shipped to your address.`}</p>
      </Alert>
    );
  return (
    <>
      {message}
      <ButtonGroup stackOnMobile>
        <PageLink target={{ page: 'card', accountId }} className={view.awaitingConfirmation ? 'btn btn-secondary' : 'btn btn-primary'}>
          {t`See your card`}
        </PageLink>
        <Button variant="secondary" onClick={() => actor.send({ type: 'APPLICATION.NEW' })}>
          {t`Apply for another card`}
        </Button>
      </ButtonGroup>
    </>
  );
}
