/**
 * The secret link of a representative who is not a user (api/business-declarations.ts header):
 * issuing it (a new secret revokes the earlier ones), authenticating a call's fromEmail/authSecret
 * pair (server/modules/platform/method-endpoint.ts, REPRESENTATIVE_SECRET_METHODS only), and
 * moving the representative's identity status when an identity job started through it is decided.
 *
 * The secret is 256 random bits (base64url); only its SHA-256 is stored, so the lookup is by hash
 * (an index hit, with nothing to learn from its timing: the hash of a guess matches nothing). The
 * e-mail is compared after the hash matched. A wrong pair, an expired or revoked link, a removed
 * representative and one who has become a user (they sign in instead) are one answer to the
 * caller (null here, 401 AU at the endpoint): it tells a guesser nothing about which part was wrong.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { REPRESENTATIVE_LINK_PATH, REPRESENTATIVE_LINK_TTL_S } from '../../../api/business-declarations.ts';
import { enqueueMail } from '../../adapters/outbox.ts';
import type { Db, Tx } from '../../db/types.ts';
import { randomToken, sha256Hex } from '../auth/crypto.ts';
import type { AuthenticatedRepresentative } from '../method-types.ts';
import { businessRepresentatives } from './business.tables.ts';
import { businessRepresentativeIdentityJobs, businessRepresentativeLinks } from './declarations.tables.ts';

/** Issues a new link for the representative (revoking the earlier ones) and returns its secret, to e-mail once. */
export async function issueRepresentativeLink(
  tx: Db | Tx,
  input: { representativeId: number; email: string; createdByUserId: number | null; nowMs: number },
): Promise<{ secret: string; expiresAt: Date }> {
  const now = new Date(input.nowMs);
  await tx
    .update(businessRepresentativeLinks)
    .set({ revokedAt: now })
    .where(and(eq(businessRepresentativeLinks.representativeId, input.representativeId), isNull(businessRepresentativeLinks.revokedAt)));
  const secret = randomToken();
  const expiresAt = new Date(input.nowMs + REPRESENTATIVE_LINK_TTL_S * 1000);
  await tx.insert(businessRepresentativeLinks).values({
    representativeId: input.representativeId,
    secretHash: sha256Hex(secret),
    email: input.email.toLowerCase(),
    createdByUserId: input.createdByUserId,
    createdAt: now,
    expiresAt,
  });
  return { secret, expiresAt };
}

export interface LinkMailOptions {
  companyName: string;
  /** the user who asked for it; null: sent by the platform (the company's activation) */
  createdByUserId: number | null;
  nowMs: number;
  /** the web app's public origin */
  publicUrl: string;
  projectName: string;
}

/** Issues a link for the representative and e-mails it (in the caller's transaction); returns the masked address and the expiry. */
export async function sendRepresentativeLink(
  tx: Db | Tx,
  rep: { id: number; firstName: string; lastName: string; email: string },
  options: LinkMailOptions,
): Promise<{ sentTo: string; expiresAt: Date }> {
  const { secret, expiresAt } = await issueRepresentativeLink(tx, { representativeId: rep.id, email: rep.email, createdByUserId: options.createdByUserId, nowMs: options.nowMs });
  const link = `${options.publicUrl}${REPRESENTATIVE_LINK_PATH}?authSecret=${encodeURIComponent(secret)}`;
  await enqueueMail(tx, {
    to: rep.email,
    subject: `${options.projectName}: your link as a representative of ${options.companyName}`.slice(0, 200),
    text:
      `Dear ${`${rep.firstName} ${rep.lastName}`.trim()},\n\n` +
      `${options.companyName} named you as one of its representatives at ${options.projectName}. ` +
      `Use this personal link to complete your tax self-certification and verify your identity; you will be asked for this e-mail address:\n\n${link}\n\n` +
      `The link works until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Do not forward it: it lets whoever holds it act as you for these steps. ` +
      `If you do not know this company, ignore this message.`,
  });
  return { sentTo: rep.email.replace(/^(.).*(@.*)$/, '$1***$2'), expiresAt };
}

/** Persons of a company's structure a link is sent to at its activation, at most. */
export const MAX_ACTIVATION_LINKS = 50;

/**
 * At the company's activation (registration.service.ts, businessAccountActivate): a link to each
 * live person of its structure who is not a user and has an e-mail address, in the activation's
 * transaction. Returns how many were sent.
 */
export async function sendRepresentativeLinks(tx: Db | Tx, companyId: number, options: Omit<LinkMailOptions, 'createdByUserId'>): Promise<number> {
  const reps = await tx
    .select({ id: businessRepresentatives.id, firstName: businessRepresentatives.firstName, lastName: businessRepresentatives.lastName, email: businessRepresentatives.email })
    .from(businessRepresentatives)
    .where(
      and(
        eq(businessRepresentatives.customerId, companyId),
        eq(businessRepresentatives.kind, 'person'),
        isNull(businessRepresentatives.userId),
        isNull(businessRepresentatives.deletedAt),
      ),
    )
    .orderBy(asc(businessRepresentatives.id))
    .limit(MAX_ACTIVATION_LINKS);
  let sent = 0;
  for (const rep of reps) {
    if (!rep.email) continue;
    await sendRepresentativeLink(tx, { ...rep, email: rep.email }, { ...options, createdByUserId: null });
    sent++;
  }
  return sent;
}

/** The representative a fromEmail/authSecret pair names, or null (see the header: one answer for every failure). */
export async function authenticateRepresentative(db: Db, pair: { fromEmail: string; authSecret: string }, nowMs: number): Promise<AuthenticatedRepresentative | null> {
  const [row] = await db
    .select({ link: businessRepresentativeLinks, rep: businessRepresentatives })
    .from(businessRepresentativeLinks)
    .innerJoin(businessRepresentatives, eq(businessRepresentatives.id, businessRepresentativeLinks.representativeId))
    .where(eq(businessRepresentativeLinks.secretHash, sha256Hex(pair.authSecret)))
    .limit(1);
  if (!row) return null;
  const { link, rep } = row;
  if (link.revokedAt !== null || link.expiresAt.getTime() <= nowMs) return null;
  if (link.email !== pair.fromEmail.trim().toLowerCase()) return null;
  // Removed, or a user now (who signs in instead): the link is spent.
  if (rep.deletedAt !== null || rep.userId !== null) return null;
  return { representativeId: rep.id, companyId: rep.customerId, email: link.email, linkId: link.id };
}

/**
 * A decided identity job: when it was started for a representative, the representative's status
 * follows it (approved: validated; rejected: rejected). Called in the decision's transaction.
 */
export async function representativeJobDecided(tx: Db | Tx, jobId: number, status: 'approved' | 'rejected'): Promise<number | null> {
  const [link] = await tx.select().from(businessRepresentativeIdentityJobs).where(eq(businessRepresentativeIdentityJobs.jobId, jobId));
  if (!link) return null;
  await tx
    .update(businessRepresentatives)
    .set({ identityStatus: status === 'approved' ? 'validated' : 'rejected' })
    .where(eq(businessRepresentatives.id, link.representativeId));
  return link.representativeId;
}
