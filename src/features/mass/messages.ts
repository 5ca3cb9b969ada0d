/** The mass transfer pages' words by kind (api/mass.ts BATCH_KINDS: the mass kinds and global pay). */
import { useLingui } from '@lingui/react/macro';
import type { BatchKind } from '../../../api/mass.ts';

export function useMassTitles(): Record<BatchKind, string> {
  const { t } = useLingui();
  return {
    p2p: t`Many payments by e-mail`,
    wire: t`Many international wires`,
    eft: t`Many local bank transfers`,
    oct: t`Many card payouts`,
    digital: t`Many crypto payouts`,
    global: t`Global pay`,
  };
}
