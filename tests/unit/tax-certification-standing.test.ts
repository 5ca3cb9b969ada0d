import { describe, expect, it } from 'vitest';
import { taxCertificationStanding } from '../../src/features/profile/tax-certification-summary.tsx';

describe("the profile's tax section: one standing from the four certificate states", () => {
  const saved = '2026-11-27T10:00:00Z';
  it.each([
    [{ updatedAt: null, states: ['none', 'notRequired', 'notRequired', 'notRequired'] }, 'notStarted'],
    [{ updatedAt: saved, states: ['none', 'pending', 'notRequired', 'notRequired'] }, 'toSign'],
    [{ updatedAt: saved, states: ['rejected', 'none', 'pending', 'notRequired'] }, 'refused'],
    [{ updatedAt: saved, states: ['pending', 'validated', 'notRequired', 'notRequired'] }, 'inReview'],
    [{ updatedAt: saved, states: ['validated', 'validated', 'notRequired', 'notRequired'] }, 'confirmed'],
  ] as const)('%j is %s', (answer, standing) => {
    expect(taxCertificationStanding(answer)).toBe(standing);
  });
});
