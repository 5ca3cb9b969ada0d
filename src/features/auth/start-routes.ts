/** The paths behind the start-page machine's route codes (document 1 §2). */
import type { StartRoute, StartTarget } from '../../../machines/start-page/start-page.machine.ts';

export const startRoutePaths: Record<StartRoute, string> = {
  home: '/home',
  adminOverview: '/admin-overview',
  profileUpdate: '/profile-update',
  kyc: '/kyc',
  selfCertificationSplash: '/self-certification-splash',
  businessSelfCertificationSplash: '/self-certification-business-splash',
  companyDocuments: '/company-documents',
};

export type Destination = { kind: 'app'; href: string } | { kind: 'external'; url: string } | { kind: 'login' };

/** Where a target leads. A legacy URL must be http(s): anything else goes home instead. */
export function destinationOf(target: StartTarget): Destination {
  switch (target.kind) {
    case 'route':
      return { kind: 'app', href: startRoutePaths[target.route] };
    case 'path':
      return { kind: 'app', href: target.path };
    case 'external': {
      try {
        const url = new URL(target.url);
        if (url.protocol === 'https:' || url.protocol === 'http:') return { kind: 'external', url: url.href };
      } catch {
        // not a URL: fall through to home
      }
      return { kind: 'app', href: startRoutePaths.home };
    }
    case 'login':
      return { kind: 'login' };
  }
}
