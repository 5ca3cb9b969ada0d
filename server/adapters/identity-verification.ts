/**
 * Identity verification behind an adapter (DESIGN.md "Outside world behind adapters"). A provider
 * starts a job for a customer and says where the customer continues.
 *
 * The built-in provider 'review' is the administrator's review queue: the customer continues on
 * the platform's own page (/identity-verification/{workflowRunId}/{token}), uploads the identity
 * documents there, and an administrator decides them (adminDocumentDecide). 'jmo' and 'nfd' are
 * names of external providers a deployment may configure (IDENTITY_VERIFICATION_PROVIDER); this
 * build holds no adapter for them, so configuring one without it is a clear error at start, never
 * a fake.
 */
export const IDENTITY_PROVIDERS = ['review', 'jmo', 'nfd'] as const;
export type IdentityProviderName = (typeof IDENTITY_PROVIDERS)[number];

export interface IdentityJobStart {
  workflowRunId: string;
  /** the secret of the job's page (only its hash is stored) */
  token: string;
  kind: 'identity' | 'video';
}

export interface IdentityVerificationProvider {
  readonly name: IdentityProviderName;
  /** where the customer continues the job (a path of this web app, or the provider's URL) */
  start(job: IdentityJobStart): Promise<{ url: string }>;
}

export class IdentityProviderUnavailable extends Error {
  override name = 'IdentityProviderUnavailable';
}

/** The built-in review-queue provider. */
export const reviewQueueProvider: IdentityVerificationProvider = {
  name: 'review',
  async start(job) {
    const base = job.kind === 'video' ? '/video-identity-job' : '/identity-verification';
    return { url: job.kind === 'video' ? `${base}/${job.workflowRunId}` : `${base}/${job.workflowRunId}/${job.token}` };
  },
};

/**
 * The provider a deployment configured: 'review' (the default) or an external one whose adapter
 * must be present; throws IdentityProviderUnavailable for a name this build cannot serve.
 */
export function identityProviderFromConfig(configured: string | undefined, adapters: Partial<Record<IdentityProviderName, IdentityVerificationProvider>> = {}): IdentityVerificationProvider {
  const name = (configured ?? 'review').trim() || 'review';
  if (name === 'review') return reviewQueueProvider;
  if (!(IDENTITY_PROVIDERS as readonly string[]).includes(name)) {
    throw new IdentityProviderUnavailable(`Unknown identity-verification provider "${name}": use review, jmo or nfd`);
  }
  const adapter = adapters[name as IdentityProviderName];
  if (!adapter) {
    throw new IdentityProviderUnavailable(`The identity-verification provider "${name}" is configured but its adapter is not installed in this build; use review`);
  }
  return adapter;
}
