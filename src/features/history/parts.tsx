/** Small pieces the history views share: a signed amount, a status badge, a pager. */
import { useEffect, useId, useRef } from 'react';
import { Badge, type BadgeTone } from '../../ui/badge.tsx';
import { useLingui } from '@lingui/react/macro';
import type { TransferStatus } from '../../../api/transfers.ts';
import { formatMoney } from '../../lib/format.ts';
import { getUiLanguage } from '../../lib/i18n.ts';
import { Button } from '../../ui/button.tsx';
import { useStatusNames } from './messages.ts';

/**
 * A row's amount: signed (+ in, − out) so the direction does not rest on colour alone, and
 * coloured by direction for those who see it.
 */
export function SignedAmount({ amount, currency, direction }: { amount: string; currency: string; direction: 'in' | 'out' }) {
  return <span className={`amount amount-${direction}`}>{formatMoney(amount, currency, getUiLanguage(), { signDisplay: 'exceptZero' })}</span>;
}

/** Completed rows need no badge; the others say where they are (pending, rejected...). */
/** A transfer's status as a badge tone: waiting is a warning, what did not happen is danger. */
const STATUS_TONE: Record<TransferStatus, BadgeTone> = {
  pending: 'warning',
  processing: 'warning',
  posted: 'success',
  returned: 'danger',
  rejected: 'danger',
  expired: 'danger',
  canceled: 'danger',
};

export function StatusBadge({ status, always = false }: { status: TransferStatus; always?: boolean }) {
  const names = useStatusNames();
  if (status === 'posted' && !always) return null;
  return <Badge tone={STATUS_TONE[status]}>{names[status]}</Badge>;
}

export interface PagerProps {
  page: number;
  pages: number;
  onPage(page: number): void;
  /** names the navigation landmark: "Transaction pages" */
  label: string;
  disabled?: boolean;
}

/**
 * Previous / next buttons with "Page X of Y" between them. The button pressed keeps focus; when
 * it turns off (the first or last page was reached) focus goes to the other one, not to the page.
 */
export function Pager({ page, pages, onPage, label, disabled = false }: PagerProps) {
  const { t } = useLingui();
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const pressed = useRef<'previous' | 'next' | null>(null);
  useEffect(() => {
    if (pressed.current === 'next' && page >= pages) previousRef.current?.focus();
    if (pressed.current === 'previous' && page <= 1) nextRef.current?.focus();
    pressed.current = null;
  }, [page, pages]);
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button
        ref={previousRef}
        variant="secondary"
        disabled={disabled || page <= 1}
        onClick={() => {
          pressed.current = 'previous';
          onPage(Math.max(1, Math.min(page - 1, pages)));
        }}
      >
        {t`Previous`}
      </Button>
      <span>{t`Page ${page} of ${pages}`}</span>
      <Button
        ref={nextRef}
        variant="secondary"
        disabled={disabled || page >= pages}
        onClick={() => {
          pressed.current = 'next';
          onPage(page + 1);
        }}
      >
        {t`Next`}
      </Button>
    </nav>
  );
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

