/**
 * Recovery codes, shown once: a list, copy and download, and "I saved them" before continuing
 * (the machine's CODES.CONTINUE guard; the view only asks `canContinue`).
 */
import { useId, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/button.tsx';
import { CheckboxField } from '../../ui/choice-fields.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';

export interface RecoveryCodesViewProps {
  codes: string[];
  saved: boolean;
  canContinue: boolean;
  onSavedChange(saved: boolean): void;
  onContinue(): void;
}

export function RecoveryCodesView({ codes, saved, canContinue, onSavedChange, onContinue }: RecoveryCodesViewProps) {
  const { t } = useLingui();
  const id = useId();
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby={`${id}-h`}>
      <StepHeading level={2} id={`${id}-h`}>{t`Save your recovery codes`}</StepHeading>
      <p id={`${id}-d`}>
        {t`Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.`}
      </p>
      <ol className="recovery-codes" aria-describedby={`${id}-d`}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="actions">
        <Button variant="secondary" onClick={() => void copy()}>
          {t`Copy codes`}
        </Button>
        <Button variant="secondary" onClick={download}>
          {t`Download codes`}
        </Button>
      </div>
      {copied ? <p role="status">{t`Copied.`}</p> : null}
      <CheckboxField label={t`I saved my recovery codes`} checked={saved} onChange={onSavedChange} />
      <Button onClick={onContinue} disabled={!canContinue}>
        {t`Continue`}
      </Button>
    </section>
  );
}
