/** The mass transfer pages' words by kind (api/mass.ts MASS_KINDS). */
import { useLingui } from '@lingui/react/macro';
import type { MassKind } from '../../../api/mass.ts';

export function useMassTitles(): Record<MassKind, string> {
  const { t } = useLingui();
  return {
    p2p: t`Many payments by e-mail`,
    wire: t`Many international wires`,
    eft: t`Many local bank transfers`,
    oct: t`Many card payouts`,
    digital: t`Many crypto payouts`,
  };
}
