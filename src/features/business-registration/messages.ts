/**
 * The words for the business registration wizard's codes (Lingui message descriptors): the
 * machine and the ownership rules emit codes; only these tables turn them into text.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { SubmitErrorCode } from '../../../machines/business-registration/business-registration.machine.ts';
import type { FieldCode, WizardSection } from '../../../machines/business-registration/business-registration.rules.ts';
import type { OwnershipCode } from '../../../api/ownership.ts';

export const fieldMessages: Record<FieldCode, MessageDescriptor> = {
  required: msg`This field is required.`,
  invalid: msg`Check this value: it is not in the expected form.`,
};

export const sectionNames: Record<WizardSection, MessageDescriptor> = {
  generalForm: msg`Company`,
  financialInfoForm: msg`Financial information`,
  dueDilligenceForm: msg`Due diligence`,
  legalForm: msg`Terms`,
  directorsHub: msg`Directors`,
  shareholdersHub: msg`Shareholders`,
  ownersHub: msg`Beneficial owners`,
  usersHub: msg`Users`,
  review: msg`Review`,
};

export const submitErrorMessages: Record<SubmitErrorCode, MessageDescriptor> = {
  closed: msg`Registration is closed at the moment.`,
  network: msg`We could not reach the server. Check your connection and try again.`,
  unknown: msg`Something went wrong. Please try again.`,
  emailTaken: msg`Your e-mail address is already registered. Sign in or use another address.`,
};

export const ownershipMessages: Record<OwnershipCode, MessageDescriptor> = {
  shareOutOfRange: msg`A share must be above 0 and at most 100 percent.`,
  shareTooPrecise: msg`A share may have at most two decimals.`,
  levelTotalOutOfRange: msg`The shares of one level must total between 10 and 100 percent.`,
  companyWithoutDirector: msg`A company shareholder needs at least one director.`,
  shareholderWithoutReference: msg`A shareholder does not name a person or a company.`,
  unknownPerson: msg`A shareholder names a person who is not in the list.`,
  unknownCompany: msg`A shareholder names a company that is not in the list.`,
  personWithShareholders: msg`A person cannot have shareholders of their own.`,
  personNameMissing: msg`A person needs a first and a last name.`,
  uboSourceOfFundsMissing: msg`A beneficial owner (25 percent or more) needs their sources of funds.`,
  uboSourceOfFundsDetailsMissing: msg`Describe each source of funds of a beneficial owner.`,
  unknownOwner: msg`An owner is not in the list of persons.`,
  companyNameMissing: msg`A company needs a name.`,
  unknownDirector: msg`A director is not in the list of persons.`,
  noDirector: msg`Add at least one director.`,
  noFullRightsUser: msg`At least one user needs full rights.`,
  userWithoutRights: msg`Every user needs access rights.`,
  userRightsInvalid: msg`Choose rights from the list for every user.`,
  userEmailExists: msg`A user's e-mail address already has an account.`,
  userEmailChecking: msg`A user's e-mail address is still being checked.`,
  userEmailUnchecked: msg`A user's e-mail address has not been checked yet.`,
  unknownUser: msg`A user is not in the list of persons.`,
};

/** Access rights a registration user may get (document 3 §3; right 5 is hidden from the choice). */
export const rightsNames: Record<1 | 2 | 3 | 4, MessageDescriptor> = {
  1: msg`Read only`,
  2: msg`Full access`,
  3: msg`Initiate payments`,
  4: msg`Confirmed payments`,
};
