/**
 * Crypto addresses for crypto payouts ("digital" transfers: document 2 §6 digital crypto
 * withdrawal, §7 crypto eft; issue 15 item 3): each currency's network, address format and
 * checksum, so a mistyped address is refused before money leaves.
 *
 * - Bitcoin: base58check P2PKH (version 0x00, "1…") and P2SH (0x05, "3…"); native segwit "bc1…"
 *   with bech32 (BIP-173) for witness version 0 and bech32m (BIP-350) for versions 1 to 16.
 * - Litecoin: base58check 0x30 ("L…"), 0x32 ("M…") and the legacy P2SH 0x05 ("3…", the same
 *   version as Bitcoin's: such an address is accepted for both); segwit "ltc1…".
 * - Ethereum and its ERC-20 tokens: "0x" and 40 hex digits; a mixed-case address must carry its
 *   EIP-55 checksum (keccak-256), an all-lower or all-upper one has none to check.
 * - Tron and its TRC-20 tokens: base58check with version 0x41 ("T…").
 *
 * Answers are codes: cryptoFormat (not an address of this kind), cryptoChecksum (a mistyped
 * character), cryptoNetwork (a valid address of another network or a test network),
 * cryptoCurrencyUnsupported.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';

export const CRYPTO_CODES = ['cryptoFormat', 'cryptoChecksum', 'cryptoNetwork', 'cryptoCurrencyUnsupported'] as const;
export type CryptoCode = (typeof CRYPTO_CODES)[number];

export const CRYPTO_NETWORKS = ['bitcoin', 'litecoin', 'ethereum', 'tron'] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/**
 * The networks a currency is paid out on, the first being the default. Tokens travel on the
 * network of their standard: ERC-20 on Ethereum, TRC-20 on Tron.
 */
export const CURRENCY_NETWORKS: Readonly<Record<string, readonly CryptoNetwork[]>> = {
  BTC: ['bitcoin'],
  LTC: ['litecoin'],
  ETH: ['ethereum'],
  TRX: ['tron'],
  USDT: ['ethereum', 'tron'],
  USDC: ['ethereum'],
};

export type CryptoCheck = { ok: true; address: string; network: CryptoNetwork } | { ok: false; code: CryptoCode };
type AddressCode = Exclude<CryptoCode, 'cryptoCurrencyUnsupported'>;
type AddressCheck = { ok: true; address: string } | { ok: false; code: AddressCode };

const base58check = createBase58check(sha256);
const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{25,35}$/;
const BECH32_ADDRESS = /^[a-z0-9]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;
/** BIP-173: an address is at most 90 characters. */
const BECH32_MAX = 90;

/** How far an address got: a check that failed later says more (a checksum beats a format). */
const RANK: Readonly<Record<AddressCode, number>> = { cryptoFormat: 0, cryptoChecksum: 1, cryptoNetwork: 2 };

function furthest(checks: readonly AddressCheck[]): AddressCode {
  return checks.reduce<AddressCode>((code, check) => (!check.ok && RANK[check.code] > RANK[code] ? check.code : code), 'cryptoFormat');
}

/** The first check that passed, else the failure that got furthest. */
function best(checks: readonly AddressCheck[]): AddressCheck {
  return checks.find((check) => check.ok) ?? { ok: false, code: furthest(checks) };
}

/** A base58check address of 21 bytes (a version byte and a 20-byte hash) whose version is one of `versions`. */
function checkBase58(address: string, versions: readonly number[]): AddressCheck {
  if (!BASE58_ADDRESS.test(address) || base58.decode(address).length !== 25) return { ok: false, code: 'cryptoFormat' };
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return { ok: false, code: 'cryptoChecksum' };
  }
  return versions.includes(payload[0] ?? -1) ? { ok: true, address } : { ok: false, code: 'cryptoNetwork' };
}

/** A native segwit address (BIP-173 with BIP-350's amendment) for the human-readable part `hrp`. */
function checkSegwit(address: string, hrp: string): AddressCheck {
  const lower = address.toLowerCase();
  // one case only: a mixed-case string is no bech32 at all
  if (address !== lower && address !== address.toUpperCase()) return { ok: false, code: 'cryptoFormat' };
  if (lower.length > BECH32_MAX || !BECH32_ADDRESS.test(lower)) return { ok: false, code: 'cryptoFormat' };
  const classic = bech32.decodeUnsafe(lower, BECH32_MAX);
  const decoded = classic ?? bech32m.decodeUnsafe(lower, BECH32_MAX);
  if (!decoded) return { ok: false, code: 'cryptoChecksum' };
  if (decoded.prefix !== hrp) return { ok: false, code: 'cryptoNetwork' };
  const [version, ...data] = decoded.words;
  if (version === undefined || version > 16) return { ok: false, code: 'cryptoFormat' };
  // version 0 is bech32, versions 1-16 bech32m: the other constant is a wrong checksum (BIP-350)
  if ((version === 0) !== Boolean(classic)) return { ok: false, code: 'cryptoChecksum' };
  const program = bech32.fromWordsUnsafe(data);
  if (!program || program.length < 2 || program.length > 40) return { ok: false, code: 'cryptoFormat' };
  if (version === 0 && program.length !== 20 && program.length !== 32) return { ok: false, code: 'cryptoFormat' };
  return { ok: true, address: lower };
}

/** EIP-55: a hex letter is upper case when the matching nibble of keccak-256(lower-case hex as ASCII) is 8 or more. */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i += 1) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? hex.charAt(i).toUpperCase() : hex.charAt(i);
  }
  return out;
}

/** "0x" and 40 hex digits; mixed case must be the EIP-55 form. Answered in its EIP-55 form. */
function checkEthereum(address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { ok: false, code: 'cryptoFormat' };
  const hex = address.slice(2);
  const checksummed = toChecksumAddress(hex);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  return singleCase || address === checksummed ? { ok: true, address: checksummed } : { ok: false, code: 'cryptoChecksum' };
}

const NETWORK_CHECKS: Readonly<Record<CryptoNetwork, (address: string) => AddressCheck>> = {
  bitcoin: (address) => best([checkBase58(address, [0x00, 0x05]), checkSegwit(address, 'bc')]),
  litecoin: (address) => best([checkBase58(address, [0x30, 0x32, 0x05]), checkSegwit(address, 'ltc')]),
  ethereum: checkEthereum,
  tron: (address) => checkBase58(address, [0x41]),
};

/**
 * An address to pay `currencyCode` to, on `network` when given (a token on several networks), else
 * on whichever of the currency's networks the address belongs to. Surrounding white space is
 * ignored (a pasted address); the answer carries the address as it is to be sent.
 */
export function checkCryptoAddress(currencyCode: string, text: string, network?: CryptoNetwork): CryptoCheck {
  const networks = CURRENCY_NETWORKS[currencyCode.toUpperCase()];
  if (!networks || (network && !networks.includes(network))) return { ok: false, code: 'cryptoCurrencyUnsupported' };
  const address = text.trim();
  const checks = networks.map((candidate) => ({ candidate, check: NETWORK_CHECKS[candidate](address) }));
  const asked = network ? checks.filter(({ candidate }) => candidate === network) : checks;
  for (const { candidate, check } of asked) if (check.ok) return { ok: true, address: check.address, network: candidate };
  // a valid address of another of the currency's networks than the one asked for
  if (checks.some(({ check }) => check.ok)) return { ok: false, code: 'cryptoNetwork' };
  return { ok: false, code: furthest(asked.map(({ check }) => check)) };
}
