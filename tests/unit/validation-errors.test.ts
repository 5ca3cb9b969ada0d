/** The VF list (api/envelope.ts): one entry per bad field, dotted path as param, plain words. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { issuesToValidationErrors, joinValidationErrors } from '../../api/envelope.ts';

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
  it('a field left out is "is required", nested ones with their dotted path', () => {
    expect(errorsOf({})).toEqual([
      { param: 'name', description: 'is required' },
      { param: 'address', description: 'is required' },
    ]);
    expect(errorsOf({ name: 'x', address: {} })).toEqual([{ param: 'address.city', description: 'is required' }]);
  });

  it('a field of the wrong kind keeps the schema’s own description', () => {
    expect(errorsOf({ name: '', address: { city: 3 } })).toEqual([
      { param: 'name', description: 'is required' },
      { param: 'address.city', description: 'must be text' },
    ]);
  });

  it('joins as param: description (document 1 §5)', () => {
    expect(joinValidationErrors(errorsOf({ name: 'x', address: { city: 1 } }))).toBe('address.city: must be text');
  });
});
