/** The receiving addresses of crypto wallets. */
import { randomBytes } from 'node:crypto';
import type { CRYPTO_CURRENCIES } from '../../../api/transfers.ts';
import { base32Encode } from '../auth/totp.ts';

/**
 * A wallet's receiving address. This platform has no connection to a blockchain, so the address is
 * a provider-internal deposit reference: 160 random bits (unguessable, and unique in practice;
 * the unique index accounts_address refuses a repeat), with a prefix that is deliberately NOT a
 * valid on-chain format (a Bitcoin address starts bc1/1/3, an Ethereum one 0x), so nobody can send
 * real coins to it by mistake. Deposits quoting it are credited by the provider's back office
 * (not built on this platform).
 */
export const WALLET_ADDRESS_PREFIX: Record<(typeof CRYPTO_CURRENCIES)[number], string> = {
  BTC: 'btc1',
  ETH: 'eth0x',
};
export const WALLET_ADDRESS_PATTERN: Record<(typeof CRYPTO_CURRENCIES)[number], RegExp> = {
  BTC: /^btc1[a-z2-7]{32}$/,
  ETH: /^eth0x[0-9a-f]{40}$/,
};

export function newWalletAddress(currency: (typeof CRYPTO_CURRENCIES)[number]): string {
  const bytes = randomBytes(20);
  const body = currency === 'BTC' ? base32Encode(bytes).toLowerCase() : bytes.toString('hex');
  return `${WALLET_ADDRESS_PREFIX[currency]}${body}`;
}
