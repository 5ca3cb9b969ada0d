/**
 * Reads the development mailbox (GET /dev/mailbox.json, on in demo mode, as the e2e
 * server): the newest message to an address, waiting for it to arrive (the outbox row is written in
 * the same transaction as the change, so it is there once the screen moved on; the poll covers the
 * screen racing ahead of this read).
 */
import { expect, type APIRequestContext } from '@playwright/test';

interface MailboxMessage {
  id: number;
  channel: 'mail' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  status: string;
  createdAt: string;
}

export async function latestMessage(
  request: APIRequestContext,
  to: string,
  channel: 'mail' | 'sms',
  matching: RegExp,
): Promise<{ message: MailboxMessage; match: RegExpMatchArray }> {
  let found: { message: MailboxMessage; match: RegExpMatchArray } | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}&channel=${channel}`);
        const { messages } = (await response.json()) as { messages: MailboxMessage[] };
        for (const message of messages) {
          const match = message.body.match(matching);
          if (match) {
            found = { message, match };
            return true;
          }
        }
        return false;
      },
      { timeout: 10_000, message: `a ${channel} message to ${to} matching ${matching}` },
    )
    .toBe(true);
  return found!;
}
