/**
 * "Add money" (issue 15 §2; document 2 §7 payment instructions): how each account is paid into
 * from outside. A fiat account has its own IBAN at the provider's bank, shown with the account
 * holder, the BIC and the bank, each with a copy button; a euro account also as the EPC QR code
 * (the "Girocode" a banking app scans to fill in a SEPA transfer), a crypto account as its wallet
 * address and a payment URI QR code. An instruction the user has not seen before is marked "New"
 * and marked seen as it is shown (paymentInstructionMarkViewed).
 *
 * The route is not in the spec's list (designed here: /add-money, in the Accounts group of the
 * navigation). In demo mode the page also plays a bank somewhere paying into one of the IBANs
 * (POST /dev/rails/incoming), so the money can be seen arriving.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { PaymentInstruction } from '../../../api/funding.ts';
import { printIban } from '../../../api/payees/iban.ts';
import { readDemoMarks } from '../../lib/demo-mode.ts';
import { callMethodOrThrow } from '../../lib/request-later.ts';
import { describeFailure, MethodCallError } from '../../lib/request.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { QrCode } from '../../ui/qr-code.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { paymentInstructionsQuery } from './queries.ts';
import './funding.css';

/** The EPC QR code's text (EPC069-12 version 002: BIC optional, amount left to the payer). */
export function epcPayload(i: Pick<PaymentInstruction, 'bic' | 'beneficiaryName' | 'iban'>): string {
  return ['BCD', '002', '1', 'SCT', i.bic ?? '', i.beneficiaryName.slice(0, 70), i.iban ?? ''].join('\n');
}

export interface AddMoneyViewProps {
  actingCustomerId: number | null;
}

export function AddMoneyView({ actingCustomerId }: AddMoneyViewProps) {
  const { t } = useLingui();
  const instructions = useQuery(paymentInstructionsQuery(actingCustomerId));
  const queryClient = useQueryClient();
  const markViewed = useMutation({
    mutationFn: (i: { instructionId: 1 | 2; accountId: number }) => callMethodOrThrow('paymentInstructionMarkViewed', i),
  });
  // What was new when the page opened stays marked "New" on this visit; the platform learns it was seen.
  const [newOnOpen, setNewOnOpen] = useState<ReadonlySet<string> | null>(null);
  const { mutate } = markViewed;
  useEffect(() => {
    if (!instructions.data || newOnOpen) return;
    const unseen = instructions.data.filter((i) => !i.viewed);
    setNewOnOpen(new Set(unseen.map((i) => `${i.accountId}:${i.instructionId}`)));
    for (const i of unseen) mutate({ instructionId: i.instructionId, accountId: i.accountId });
  }, [instructions.data, newOnOpen, mutate]);

  return (
    <div className="add-money-page">
      <StepHeading>{t`Add money`}</StepHeading>
      <p>{t`Pay into your accounts from any bank: each account has its own account number (IBAN). Money sent to it arrives on that account.`}</p>
      {instructions.isPending ? (
        <Spinner label={t`Loading your receiving details`} />
      ) : instructions.isError ? (
        <Alert tone="error" title={t`Your receiving details could not be loaded`}>
          <p>{instructions.error instanceof MethodCallError ? describeFailure(instructions.error.failure) : t`Unknown error`}</p>
          <Button variant="secondary" onClick={() => void instructions.refetch()}>
            {t`Try again`}
          </Button>
        </Alert>
      ) : instructions.data.length === 0 ? (
        <p>{t`You have no accounts that can receive money yet.`}</p>
      ) : (
        <>
          <ul className="add-money-list">
            {instructions.data.map((i) => (
              <li key={`${i.accountId}:${i.instructionId}`}>
                <InstructionCard instruction={i} isNew={newOnOpen?.has(`${i.accountId}:${i.instructionId}`) ?? !i.viewed} />
              </li>
            ))}
          </ul>
          {readDemoMarks().demo ? (
            <SimulatedTransfer
              accounts={instructions.data.filter((i) => i.iban !== null)}
              onSent={() => {
                // the simulated network credits within seconds: read the balances again then
                setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['balanceInquiry'] }), 4_000);
              }}
            />
          ) : null}
        </>
      )}
    </div>
  );
}

function InstructionCard({ instruction: i, isNew }: { instruction: PaymentInstruction; isNew: boolean }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<string | null>(null);
  const { currency, accountId } = i;
  const schemeNames: Record<PaymentInstruction['scheme'], string> = {
    sepa: t`SEPA transfer in euro`,
    swift: t`International (SWIFT) transfer`,
    bitcoin: t`Bitcoin network`,
    ethereum: t`Ethereum network`,
  };
  const rows: { label: string; value: string; shown?: string }[] =
    i.address !== null
      ? [{ label: t`Wallet address`, value: i.address }]
      : [
          { label: t`Account holder`, value: i.beneficiaryName },
          { label: t`IBAN`, value: i.iban ?? '', shown: printIban(i.iban ?? '') },
          { label: t`BIC (SWIFT code)`, value: i.bic ?? '' },
          { label: t`Bank`, value: i.bankName ?? '' },
          { label: t`Bank address`, value: i.bankAddress ?? '' },
        ];
  const copy = async (label: string, value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(label);
    } catch {
      setCopied(null);
    }
  };
  const qr =
    i.scheme === 'sepa' && i.iban
      ? { value: epcPayload(i), label: t`QR code for a SEPA transfer to this account: scan it in your banking app` }
      : i.address
        ? { value: `${i.scheme}:${i.address}`, label: t`QR code of the wallet address` }
        : null;
  return (
    <Card
      as="article"
      headingLevel={2}
      title={
        <>
          {t`${currency} account ${accountId}`} {isNew ? <Badge tone="info">{t`New`}</Badge> : null}
        </>
      }
    >
      <p className="add-money-scheme">{schemeNames[i.scheme]}</p>
      <div className="add-money-body">
        <dl className="add-money-details">
          {rows.map(({ label: what, value, shown }) => (
            <div key={what} className="add-money-row">
              <dt>{what}</dt>
              <dd>
                <span className="add-money-value">{shown ?? value}</span>
                <Button variant="secondary" size="sm" onClick={() => void copy(what, value)} aria-label={t`Copy ${what}`}>
                  {t`Copy`}
                </Button>
              </dd>
            </div>
          ))}
        </dl>
        {qr ? (
          <div className="add-money-qr">
            <QrCode value={qr.value} label={qr.label} sizePx={160} text="" />
          </div>
        ) : null}
      </div>
      <p role="status" className="add-money-copied">
        {copied ? t`Copied: ${copied}` : ''}
      </p>
    </Card>
  );
}

/** Demo mode only: a bank somewhere pays into one of the IBANs (the simulated network's incoming side). */
function SimulatedTransfer({ accounts, onSent }: { accounts: PaymentInstruction[]; onSent: () => void }) {
  const { t } = useLingui();
  const id = useId();
  const [accountId, setAccountId] = useState<number | null>(accounts[0]?.accountId ?? null);
  const [amount, setAmount] = useState('100.00');
  const [senderName, setSenderName] = useState('');
  const result = useRef<HTMLParagraphElement>(null);
  const chosen = accounts.find((a) => a.accountId === accountId) ?? accounts[0];
  const send = useMutation({
    mutationFn: async () => {
      const response = await fetch('/dev/rails/incoming', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ iban: chosen!.iban, amount, currency: chosen!.currency, senderName: senderName.trim() || t`Demo sender`, reference: t`Demo top-up` }),
      });
      if (!response.ok) throw new Error(((await response.json().catch(() => ({}))) as { message?: string }).message ?? String(response.status));
    },
    onSuccess: () => {
      onSent();
      result.current?.focus();
    },
  });
  if (!chosen) return null;
  const chosenCurrency = chosen.currency;
  const refusal = send.error?.message ?? '';
  return (
    <section className="add-money-demo" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Try it: a bank transfer from outside`}</h2>
      <p>{t`Demo only: a bank on the simulated network pays into the account you choose. The money arrives in a few seconds.`}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <SelectField
          label={t`Account`}
          name="accountId"
          value={String(chosen.accountId)}
          onChange={(value) => setAccountId(Number(value))}
          options={accounts.map(({ currency, accountId }) => ({ value: String(accountId), label: t`${currency} account ${accountId}` }))}
        />
        <TextField label={t`Amount (${chosenCurrency})`} name="amount" value={amount} onChange={setAmount} inputMode="decimal" required maxLength={9} />
        <TextField label={t`Sender name`} name="senderName" value={senderName} onChange={setSenderName} autoComplete="off" maxLength={140} />
        <Button type="submit" busy={send.isPending}>
          {t`Send the test transfer`}
        </Button>
      </form>
      <p ref={result} tabIndex={-1} role="status" className="add-money-result">
        {send.isSuccess ? t`The transfer is on its way: it arrives in a few seconds.` : ''}
        {send.isError ? t`The test transfer was refused: ${refusal}` : ''}
      </p>
    </section>
  );
}
