/**
 * Where a required action (api/verification.ts requiredActions) is done: a section of /profile, or,
 * for the tax section, the self-certification itself (issue 18: the questions and the signed forms
 * live at /self-certification; the profile's tax section only shows its state and links there).
 */
import type { RequiredAction } from '../../../api/verification.ts';

export type RequiredActionLink = { to: '/self-certification'; hash?: undefined } | { to: '/profile'; hash: string };

export function requiredActionLink(action: Pick<RequiredAction, 'id' | 'section'>): RequiredActionLink {
  return action.id === 'taxSection' ? { to: '/self-certification' } : { to: '/profile', hash: action.section };
}
