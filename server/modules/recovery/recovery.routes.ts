/**
 * The administrator reads the identity document and selfie of a recovery task over REST
 * (api/admin.ts recoveryFileRoute), with the bearer token; every read is audited.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { recoveryFileRoute } from '../../../api/admin.ts';
import type { Db } from '../../db/types.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import { bearerToken } from '../platform/method-endpoint.ts';
import { auditLog } from '../platform/platform.tables.ts';
import { attachmentDisposition } from '../profile/profile.routes.ts';
import { accountRecoveryFiles } from './recovery.tables.ts';

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function recoveryRoutes(app: FastifyInstance, options: { db: Db; tokens: TokenService }): Promise<void> {
  const { db, tokens } = options;
  app.get(recoveryFileRoute, async (request, reply) => {
    const caller = await tokens.authenticate(bearerToken(request));
    if (!caller) return reply.code(401).send({ responseCode: 'AU', responseDescription: 'Sign-in required' });
    if (!caller.isAdmin) return reply.code(403).send({ responseCode: '13', responseDescription: 'Administrators only' });
    const { taskId, kind } = request.params as { taskId: string; kind: string };
    if (!TASK_ID.test(taskId) || (kind !== 'document' && kind !== 'selfie')) return reply.code(404).send({ responseCode: 'ENOA', responseDescription: 'Not found' });
    const [row] = await db
      .select()
      .from(accountRecoveryFiles)
      .where(and(eq(accountRecoveryFiles.taskId, taskId), eq(accountRecoveryFiles.kind, kind)));
    if (!row) return reply.code(404).send({ responseCode: 'ENOA', responseDescription: 'Not found' });
    await db.insert(auditLog).values({ userId: caller.userId, customerId: null, method: 'adminRecoveryFileDownload', details: { taskId, kind } });
    return reply
      .code(200)
      .header('Content-Type', row.mimeType)
      .header('Content-Disposition', attachmentDisposition(row.fileName))
      .header('Cache-Control', 'no-store')
      .send(row.content);
  });
}
