/**
 * /account-recovery/success: the URL of the machine's success step. The layout
 * (../account-recovery.tsx) renders the step, so this route has no component of its own.
 */
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_external/account-recovery/success')({});
