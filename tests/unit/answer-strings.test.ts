/**
 * The web app turns numeric-looking strings of an answer into numbers unless their key is listed
 * (src/lib/request.ts keepAsString): a decimal amount the schema wants as a string, under a key
 * not listed, would fail the answer's check and the screen would say "Unknown error" (a payout's
 * fee `total` did, 2026-11-27). Every key of every answer whose schema is a string that may look
 * like a number (a decimal string, or a code such as a card BIN) must be listed.
 */
import { describe, expect, it } from 'vitest';
import type * as v from 'valibot';
import { decimalString } from '../../api/accounts.ts';
import { methods } from '../../api/registry.ts';
import { keepAsString } from '../../src/lib/request.ts';

type Schema = v.GenericSchema & { type: string; entries?: Record<string, Schema>; item?: Schema; wrapped?: Schema; options?: Schema[] };

/** The keys under which a decimal string sits, anywhere in a schema. */
function decimalKeys(schema: Schema, key: string | null, out: Set<string>, seen = new Set<Schema>()): Set<string> {
  // the one decimalString schema sits under many keys: each is noted before the walk skips what it has seen
  if (schema === (decimalString as unknown as Schema) && key !== null) out.add(key);
  if (seen.has(schema)) return out;
  seen.add(schema);
  if (schema.entries) for (const [k, s] of Object.entries(schema.entries)) decimalKeys(s, k, out, seen);
  if (schema.item) decimalKeys(schema.item, key, out, seen);
  if (schema.wrapped) decimalKeys(schema.wrapped, key, out, seen);
  if (Array.isArray(schema.options)) for (const s of schema.options) if (typeof s === 'object') decimalKeys(s, key, out, seen);
  return out;
}

describe('answers keep their decimal strings', () => {
  it('every key of a decimal string in an answer is one the app keeps as a string', () => {
    const missing: string[] = [];
    for (const [name, method] of Object.entries(methods)) {
      for (const key of decimalKeys(method.response as unknown as Schema, null, new Set())) if (!keepAsString.has(key)) missing.push(`${name}.${key}`);
    }
    expect(missing).toEqual([]);
  });

  it('finds them (a check that can fail): the fee calls answer a total', () => {
    expect(decimalKeys(methods.wireFee.response as unknown as Schema, null, new Set())).toContain('total');
  });
});

describe("a company's phone and free answers stay as they came", () => {
  it('businessInfoGet with a calling code and digit-only answers passes its check after normalising', async () => {
    const { normaliseAnswer } = await import('../../src/lib/request.ts');
    const v = await import('valibot');
    const answer = normaliseAnswer({
      company: {
        phone: { countryCode: '44', number: '2071234567', confirmed: false },
        additionalQuestionAnswers: { controlAccount: '1', since: '2019' },
        dueDiligenceQuestionnaire: { government: '0' },
        financialDetail: { monthlyDepositAmount: '40000' },
      },
    }) as { company: Record<string, unknown> };
    expect(answer.company.phone).toEqual({ countryCode: '44', number: '2071234567', confirmed: false });
    expect(answer.company.additionalQuestionAnswers).toEqual({ controlAccount: '1', since: '2019' });
    expect(answer.company.financialDetail).toEqual({ monthlyDepositAmount: '40000' });
    const shape = methods.businessInfoGet.response as unknown as { entries: { company: { entries: Record<string, v.GenericSchema> } } };
    const { phone, additionalQuestionAnswers } = shape.entries.company.entries;
    expect(v.safeParse(phone!, answer.company.phone).success).toBe(true);
    expect(v.safeParse(additionalQuestionAnswers!, answer.company.additionalQuestionAnswers).success).toBe(true);
  });
});
