/**
 * The generic error popup (document 3 §8): the header is the response description; when that is
 * over 50 characters the header is 'Error' and the body is the description; otherwise the body
 * is the message the caller gives. Validation errors are joined (`param: description`).
 */
import { t } from '@lingui/core/macro';
import { joinValidationErrors, type Failure } from '../../api/envelope.ts';
import { describeFailure } from './request.ts';

export const POPUP_HEADER_MAX_CHARS = 50;

export interface PopupContent {
  title: string;
  body: string;
}

export function errorPopupContent(failure: Failure, message?: string): PopupContent {
  const description = failure.responseDescription?.trim() ?? '';
  const validation =
    failure.validationErrors && failure.validationErrors.length > 0 ? joinValidationErrors(failure.validationErrors) : '';
  if (description.length > POPUP_HEADER_MAX_CHARS) {
    return { title: t`Error`, body: validation ? `${description} ${validation}` : description };
  }
  const title = description || t`Error`;
  const body = validation || message || (description ? '' : describeFailure(failure));
  return { title, body };
}
