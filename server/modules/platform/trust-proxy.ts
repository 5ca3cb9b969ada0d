/**
 * TRUST_PROXY (issue 11 finding 3): which proxies' X-Forwarded-For / -Proto / -Host the platform
 * believes. The client writes the left-most X-Forwarded-For entries itself, so "trust everything"
 * (`true`) would let it choose the address every per-address limit and the login history see.
 * Only two forms are accepted, both handed to Fastify's trustProxy (proxy-addr):
 * - a hop count N: the address N hops back from the socket's, i.e. what the last N proxies saw;
 * - a comma-separated list of proxy addresses and CIDRs: the header is read only from them, and
 *   walked back past trusted entries to the first untrusted address.
 */
import { isIP } from 'node:net';

/** A hop count, or the proxies' addresses and CIDRs; false believes no header. */
export type TrustProxy = false | number | readonly string[];

export const TrustProxyMessages = {
  trueRefused:
    'TRUST_PROXY=true is refused: it believes the left-most X-Forwarded-For address, which the client writes. ' +
    'Set the number of proxies in front of the platform (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.0/8,192.168.1.5).',
  invalid: (entry: string) =>
    `TRUST_PROXY: "${entry}" is neither a hop count (0-100) nor an IP address or CIDR; give a hop count or a comma-separated list of proxy addresses.`,
} as const;

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Reads TRUST_PROXY; throws with a message saying what to set instead on `true` or a bad entry. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') throw new Error(TrustProxyMessages.trueRefused);
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new Error(TrustProxyMessages.invalid(text));
    return hops === 0 ? false : hops;
  }
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) if (!isAddressOrCidr(entry)) throw new Error(TrustProxyMessages.invalid(entry));
  return entries;
}

/**
 * The trustProxy Fastify takes. A hop count becomes proxy-addr's hop function (Express's meaning:
 * the socket's address and the next N-1 entries are proxies): this Fastify treats a bare number
 * as "trust nothing".
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return [...trust];
}
