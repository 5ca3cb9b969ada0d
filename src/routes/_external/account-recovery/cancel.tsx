/**
 * /account-recovery/cancel: the owner's page to cancel a recovery of the account (the link mailed
 * to its e-mails). The layout (../account-recovery.tsx) renders it, so this route has no component.
 */
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_external/account-recovery/cancel')({});
