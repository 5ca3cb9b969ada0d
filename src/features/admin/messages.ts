/**
 * The admin overview's wording for the platform's codes: document status ids, document categories
 * and derived states (document 1 §3), identity job kinds. Status and category ids come from
 * api/verification.ts; an id the app does not know yet reads "Unknown (id)".
 */
import { useLingui } from '@lingui/react/macro';
import { DocumentCategory, DocumentStatus, EXPIRES_SOON_DAYS, type DocumentState } from '../../../api/verification.ts';

type StatusKey = keyof typeof DocumentStatus;
type CategoryKey = keyof typeof DocumentCategory;

function byId<K extends string>(ids: Record<K, number>, names: Record<K, string>): Map<number, string> {
  return new Map((Object.keys(ids) as K[]).map((k) => [ids[k], names[k]]));
}

export function useDocumentStatusNames(): (statusId: number) => string {
  const { t } = useLingui();
  const names = byId<StatusKey>(DocumentStatus, {
    submitted: t`Submitted`,
    confirmed: t`Confirmed`,
    canceled: t`Canceled`,
    deleted: t`Deleted`,
    rejected: t`Rejected`,
    underInvestigation: t`Under investigation`,
    expired: t`Expired`,
    pending: t`Pending`,
    nameMismatch: t`Name mismatch`,
  });
  return (statusId) => names.get(statusId) ?? t`Unknown (${statusId})`;
}

export function useDocumentCategoryNames(): (categoryId: number) => string {
  const { t } = useLingui();
  const names = byId<CategoryKey>(DocumentCategory, {
    identity: t`Identity`,
    address: t`Proof of address`,
    phone: t`Phone`,
    businessRegistration: t`Business registration`,
    other: t`Other`,
    relationship: t`Relationship`,
    businessAddress: t`Business address`,
    registrationAddress: t`Registration address`,
    control: t`Control`,
    businessAdditional: t`Business, additional`,
    sourceOfWealth: t`Source of wealth`,
    residencePermit: t`Residence permit`,
  });
  return (categoryId) => names.get(categoryId) ?? t`Unknown (${categoryId})`;
}

/** The derived states as the administrator reads them. */
export function useDocumentStateNames(): Record<DocumentState, string> {
  const { t } = useLingui();
  const days = EXPIRES_SOON_DAYS;
  return {
    none: t`Nothing uploaded`,
    pending: t`Waiting for review`,
    validated: t`Validated`,
    expiredSoon: t`Validated, expires within ${days} days`,
    expired: t`Expired`,
    rejected: t`Rejected: a new one is needed`,
    notRequired: t`Not required`,
  };
}

export function useIdentityJobKindNames(): Record<'identity' | 'video', string> {
  const { t } = useLingui();
  return { identity: t`Identity verification`, video: t`Video identity` };
}
