/** The VF list (api/envelope.ts): one entry per bad field, dotted path as param, a code (api/errors.ts) with its parameters and its English description. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { issuesToValidationErrors, joinValidationErrors } from '../../api/envelope.ts';
import { VfCode } from '../../api/errors.ts';

const Schema = v.object({
  name: v.pipe(v.string(), v.minLength(1, 'is required')),
  address: v.object({ city: v.string('must be text') }),
  note: v.optional(v.string()),
});

function errorsOf(input: unknown) {
  const result = v.safeParse(Schema, input, { abortEarly: false });
  if (result.success) throw new Error('expected a validation failure');
  return issuesToValidationErrors(result.issues);
}

describe('validation errors', () => {
  it('a field left out is required, nested ones with their dotted path', () => {
    expect(errorsOf({})).toEqual([
      { param: 'name', description: 'is required', code: 'required', params: {} },
      { param: 'address', description: 'is required', code: 'required', params: {} },
    ]);
    expect(errorsOf({ name: 'x', address: {} })).toEqual([{ param: 'address.city', description: 'is required', code: 'required', params: {} }]);
  });

  it('a field of the wrong kind has a code, not the schema’s English message', () => {
    expect(errorsOf({ name: '', address: { city: 3 } })).toEqual([
      { param: 'name', description: 'is required', code: 'required', params: {} },
      { param: 'address.city', description: 'has the wrong type', code: 'wrongType', params: {} },
    ]);
  });

  it('each check the schemas use gives its code and its requirement as parameter', () => {
    const Checks = v.object({
      short: v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters')),
      long: v.pipe(v.string(), v.maxLength(3, 'must be at most 3 characters')),
      few: v.pipe(v.array(v.number()), v.minLength(2)),
      many: v.pipe(v.array(v.number()), v.maxLength(1)),
      small: v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more')),
      big: v.pipe(v.number(), v.maxValue(10)),
      whole: v.pipe(v.number(), v.integer()),
      email: v.pipe(v.string(), v.email('must be an e-mail address')),
      date: v.pipe(v.string(), v.isoDate()),
      pattern: v.pipe(v.string(), v.regex(/^\d+$/, 'must be digits')),
      digit: v.pipe(v.string(), v.regex(/\d/, VfCode.needsDigit)),
      choice: v.picklist(['a', 'b']),
    });
    const result = v.safeParse(
      Checks,
      { short: 'abc', long: 'abcd', few: [1], many: [1, 2], small: 0, big: 11, whole: 1.5, email: 'x', date: '2026-13-01', pattern: 'x', digit: 'x', choice: 'c' },
      { abortEarly: false },
    );
    if (result.success) throw new Error('expected a validation failure');
    const byParam = Object.fromEntries(issuesToValidationErrors(result.issues).map((e) => [e.param, [e.code, e.params, e.description]]));
    expect(byParam).toEqual({
      short: ['tooShort', { min: 8 }, 'must be at least 8 characters'],
      long: ['tooLong', { max: 3 }, 'must be at most 3 characters'],
      few: ['tooFewItems', { min: 2 }, 'must have at least 2 items'],
      many: ['tooManyItems', { max: 1 }, 'must have at most 1 items'],
      small: ['tooSmall', { min: 1 }, 'must be 1 or more'],
      big: ['tooLarge', { max: 10 }, 'must be 10 or less'],
      whole: ['notInteger', {}, 'must be a whole number'],
      email: ['notEmail', {}, 'must be an e-mail address'],
      date: ['notDate', {}, 'must be a date (YYYY-MM-DD)'],
      pattern: ['badFormat', {}, 'has the wrong format'],
      digit: ['needsDigit', {}, 'must contain a digit'],
      choice: ['notAllowed', {}, 'is not one of the allowed values'],
    });
  });

  it('joins as param: description for other clients (document 1 §5)', () => {
    expect(joinValidationErrors(errorsOf({ name: 'x', address: { city: 1 } }))).toBe('address.city: has the wrong type');
  });
});
