/**
 * The sign-in code of the text message the sms step asked for: the outbox SMS to the phone whose
 * identifier is the one the screen shows (an older message carries another identifier and another
 * code, so pairing by identifier is what a customer does too).
 */
import type { APIRequestContext } from '@playwright/test';
import { latestMessage } from './mailbox.ts';

export async function smsSignInCode(request: APIRequestContext, phone: { countryCode: string; number: string }, identifier: string): Promise<string> {
  if (!/^\d{2}$/.test(identifier)) throw new Error(`not a two-digit identifier: ${identifier}`);
  const { match } = await latestMessage(
    request,
    `+${phone.countryCode}${phone.number}`,
    'sms',
    new RegExp(`sign-in code is (\\d{6}) \\(identifier ${identifier}\\)`),
  );
  return match[1]!;
}
