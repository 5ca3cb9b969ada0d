/**
 * The generic error popup (document 3 §8): the header is the response description; when that is
 * over 50 characters the header is 'Error' and the body is the description; otherwise the body
 * is the message the caller gives. Validation errors are joined, each in the customer's language.
 */
import { t } from '@lingui/core/macro';
import type { Failure } from '../../api/envelope.ts';
import { describeFailure, isEnglish } from './request.ts';
import { validationMessages } from './validation-messages.ts';

export const POPUP_HEADER_MAX_CHARS = 50;

export interface PopupContent {
  title: string;
  body: string;
}

export function errorPopupContent(failure: Failure, message?: string): PopupContent {
  // The platform's description is English: other readers get the app's words (describeFailure).
  const description = isEnglish() ? (failure.responseDescription?.trim() ?? '') : '';
  const validation = failure.validationErrors && failure.validationErrors.length > 0 ? validationMessages(failure.validationErrors) : '';
  if (description.length > POPUP_HEADER_MAX_CHARS) {
    return { title: t`Error`, body: validation ? `${description} ${validation}` : description };
  }
  const title = description || t`Error`;
  const body = validation || message || (description ? '' : describeFailure(failure));
  return { title, body };
}
