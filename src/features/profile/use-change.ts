/**
 * A one-shot profile change (a mutation): the call, then the profile's reads and the verification
 * status read again (invalidateAfterChange). A failure keeps its VF list so the form can put each
 * error on its field; everything else reads as describeFailure.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Failure, ValidationError } from '../../../api/envelope.ts';
import { MethodCallError, describeFailure, isFailure } from '../../lib/request.ts';
import { validationMessage } from '../../lib/validation-messages.ts';
import { invalidateAfterChange } from './queries.ts';

export function useChange<TVars, TAnswer extends { responseCode: string }>(call: (vars: TVars) => Promise<TAnswer | Failure>, onDone?: (answer: TAnswer) => void) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (vars: TVars) => {
      const answer = await call(vars);
      if (isFailure(answer)) throw new MethodCallError(answer as Failure);
      return answer as TAnswer;
    },
    onSuccess: async (answer) => {
      await invalidateAfterChange(client);
      onDone?.(answer);
    },
  });
  const failure = mutation.error instanceof MethodCallError ? mutation.error.failure : null;
  return {
    run: (vars: TVars) => mutation.mutate(vars),
    runAsync: (vars: TVars) => mutation.mutateAsync(vars),
    busy: mutation.isPending,
    done: mutation.isSuccess,
    reset: () => mutation.reset(),
    /** the platform's error on one field (VF param) in the customer's language, if any */
    fieldError: (param: string): string | undefined => {
      const error = failure?.validationErrors?.find((e: ValidationError) => e.param === param);
      return error ? validationMessage(error) : undefined;
    },
    /** the failure as a whole in the customer's language, or null */
    errorText: mutation.error ? (failure ? describeFailure(failure) : String(mutation.error)) : null,
  };
}
