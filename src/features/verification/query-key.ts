/**
 * The key (prefix) of the verification status query (userStatusGet), which the status banner reads.
 * Every screen that changes what the status is derived from (phones, addresses, documents, KYC)
 * invalidates it: `queryClient.invalidateQueries({ queryKey: verificationQueryKey })`. The banner's
 * own query key starts with it (more parts, such as the acting-for id, may follow).
 */
export const verificationQueryKey = ['userStatusGet'] as const;
