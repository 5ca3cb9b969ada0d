/**
 * Choosing a new password (account recovery and the settings' password change): the rules of
 * api/auth.ts PasswordSchema shown before the user types, then the password and its repetition,
 * each with the error the flow's machine gives it.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { PASSWORD_MIN_LENGTH } from '../../../api/auth.ts';
import { TextField } from '../../ui/text-field.tsx';

export function PasswordRules({ id }: { id: string }) {
  const min = PASSWORD_MIN_LENGTH;
  return (
    <ul id={id} className="password-rules">
      <li>
        <Trans>At least {min} characters (at most 128)</Trans>
      </li>
      <li>
        <Trans>At least one letter</Trans>
      </li>
      <li>
        <Trans>At least one digit</Trans>
      </li>
    </ul>
  );
}

export interface NewPasswordFieldsProps {
  password: string;
  onPassword(value: string): void;
  confirmation: string;
  onConfirmation(value: string): void;
  /** the text for a password the rules refuse, when that is the error */
  weakError: string | undefined;
  /** the text for a repetition that differs, when that is the error */
  mismatchError: string | undefined;
}

export function NewPasswordFields({ password, onPassword, confirmation, onConfirmation, weakError, mismatchError }: NewPasswordFieldsProps) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`New password`}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        required
        maxLength={128}
        error={weakError}
      />
      <TextField
        label={t`Repeat the new password`}
        name="confirmation"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmation}
        required
        maxLength={128}
        error={mismatchError}
      />
    </>
  );
}
