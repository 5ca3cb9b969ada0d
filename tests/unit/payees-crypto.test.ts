/** Crypto addresses per currency: format, checksum and network (api/payees/crypto.ts; issue 15 item 3). */
import { describe, expect, it } from 'vitest';
import { checkCryptoAddress, CURRENCY_NETWORKS, toChecksumAddress } from '../../api/payees/crypto.ts';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Every string that differs from `text` in one character at `position`, taken from `alphabet`. */
function substitutions(text: string, position: number, alphabet: string): string[] {
  return [...alphabet].filter((char) => char !== text[position]).map((char) => text.slice(0, position) + char + text.slice(position + 1));
}

describe('Bitcoin', () => {
  it('passes base58check P2PKH and P2SH addresses', () => {
    // the genesis block's address, and the P2SH example of the Bitcoin wiki
    expect(checkCryptoAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual({
      ok: true,
      address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      network: 'bitcoin',
    });
    expect(checkCryptoAddress('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toMatchObject({ ok: true });
    expect(checkCryptoAddress('btc', '  1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\n')).toMatchObject({ ok: true }); // pasted
  });

  it('refuses every one-character change of a base58check address', () => {
    const address = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
    for (let position = 1; position < address.length; position += 1) {
      for (const changed of substitutions(address, position, BASE58)) expect(checkCryptoAddress('BTC', changed).ok, changed).toBe(false);
    }
    expect(checkCryptoAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toEqual({ ok: false, code: 'cryptoChecksum' });
    expect(checkCryptoAddress('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz')).toEqual({ ok: false, code: 'cryptoChecksum' });
  });

  it('passes the valid segwit addresses of BIP-350 (bech32 for v0, bech32m for v1 to v16), in one case', () => {
    for (const address of [
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      'BC1SW50QGDZ25J',
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ]) {
      expect(checkCryptoAddress('BTC', address), address).toEqual({ ok: true, address: address.toLowerCase(), network: 'bitcoin' });
    }
  });

  it('refuses the invalid segwit addresses of BIP-350 with the reason as a code', () => {
    const cases: [string, string][] = [
      ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'cryptoNetwork'], // another human-readable part
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'cryptoChecksum'], // v1 with bech32
      ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'cryptoChecksum'], // v16 with bech32
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'cryptoChecksum'], // v0 with bech32m
      ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'cryptoFormat'], // 'o' in the checksum
      ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'cryptoFormat'], // witness version 17
      ['bc1pw5dgrnzv', 'cryptoFormat'], // 1-byte program
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'cryptoFormat'], // 41-byte program
      ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'cryptoFormat'], // v0 program of 16 bytes
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'cryptoFormat'], // more than 4 bits of padding
      ['bc1gmk9yu', 'cryptoFormat'], // empty data
    ];
    for (const [address, code] of cases) expect(checkCryptoAddress('BTC', address), address).toEqual({ ok: false, code });
    // mixed case is no bech32 (BIP-173)
    expect(checkCryptoAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3T4')).toEqual({ ok: false, code: 'cryptoFormat' });
  });

  it('refuses every one-character change of a segwit address', () => {
    const address = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
    for (let position = 3; position < address.length; position += 1) {
      for (const changed of substitutions(address, position, BECH32))
        expect(checkCryptoAddress('BTC', changed), changed).toEqual({ ok: false, code: 'cryptoChecksum' });
    }
  });

  it('refuses valid addresses of test networks and of Litecoin as another network', () => {
    expect(checkCryptoAddress('BTC', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7')).toEqual({ ok: false, code: 'cryptoNetwork' });
    expect(checkCryptoAddress('BTC', 'mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef')).toEqual({ ok: false, code: 'cryptoNetwork' }); // testnet P2PKH
    expect(checkCryptoAddress('BTC', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9')).toEqual({ ok: false, code: 'cryptoNetwork' });
    expect(checkCryptoAddress('BTC', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea')).toEqual({ ok: false, code: 'cryptoNetwork' });
    expect(checkCryptoAddress('BTC', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual({ ok: false, code: 'cryptoFormat' });
  });
});

describe('Litecoin', () => {
  it('passes L, M and legacy 3 addresses and ltc1 segwit ones', () => {
    for (const address of [
      'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
      'LTpYZG19YmfvY2bBDYtCKpunVRw7nVgRHW',
      'MUWheVyCBf3Fm3WNNXvotQ3Gj8NTSZCBVe',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // version 0x05 is Litecoin's legacy P2SH as well
      'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
      'ltc1qhxka8d59lylj76rpsflhagp76nvckggd8x0tt7jtnphpkmfv3snsk6suq0',
    ]) {
      expect(checkCryptoAddress('LTC', address), address).toMatchObject({ ok: true, network: 'litecoin' });
    }
  });

  it('refuses corrupted ones and those of Bitcoin', () => {
    expect(checkCryptoAddress('LTC', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8')).toEqual({ ok: false, code: 'cryptoChecksum' });
    expect(checkCryptoAddress('LTC', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfeq')).toEqual({ ok: false, code: 'cryptoChecksum' });
    expect(checkCryptoAddress('LTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual({ ok: false, code: 'cryptoNetwork' });
    expect(checkCryptoAddress('LTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toEqual({ ok: false, code: 'cryptoNetwork' });
  });
});

describe('Ethereum and ERC-20 tokens', () => {
  const EIP55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('passes the EIP-55 examples and computes their checksum form', () => {
    for (const address of EIP55) {
      expect(checkCryptoAddress('ETH', address)).toEqual({ ok: true, address, network: 'ethereum' });
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    }
  });

  it('passes an all-lower or all-upper address (no checksum to check), answered in its EIP-55 form', () => {
    expect(checkCryptoAddress('ETH', EIP55[0]!.toLowerCase())).toEqual({ ok: true, address: EIP55[0], network: 'ethereum' });
    expect(checkCryptoAddress('ETH', `0x${EIP55[1]!.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: EIP55[1], network: 'ethereum' });
  });

  it('refuses mixed case that is not the checksum: every single letter with its case changed', () => {
    for (const address of EIP55) {
      for (let i = 2; i < address.length; i += 1) {
        const char = address.charAt(i);
        if (!/[a-fA-F]/.test(char)) continue;
        const flipped = address.slice(0, i) + (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) + address.slice(i + 1);
        expect(checkCryptoAddress('ETH', flipped), flipped).toEqual({ ok: false, code: 'cryptoChecksum' });
      }
    }
  });

  it('refuses other shapes', () => {
    for (const address of [
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg',
    ]) {
      expect(checkCryptoAddress('ETH', address), address).toEqual({ ok: false, code: 'cryptoFormat' });
    }
  });
});

describe('Tron, TRC-20 tokens, and tokens on several networks', () => {
  // Tether's USDT contracts on Tron and on Ethereum
  const USDT_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const USDT_ETHEREUM = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

  it('passes a base58check address with version 0x41', () => {
    expect(checkCryptoAddress('TRX', USDT_TRON)).toEqual({ ok: true, address: USDT_TRON, network: 'tron' });
  });

  it('refuses every one-character change of it, and a Bitcoin address as another network', () => {
    for (let position = 1; position < USDT_TRON.length; position += 1) {
      for (const changed of substitutions(USDT_TRON, position, BASE58)) expect(checkCryptoAddress('TRX', changed).ok, changed).toBe(false);
    }
    expect(checkCryptoAddress('TRX', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toEqual({ ok: false, code: 'cryptoChecksum' });
    expect(checkCryptoAddress('TRX', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual({ ok: false, code: 'cryptoNetwork' });
  });

  it('finds the network of a token from its address, or checks the one chosen', () => {
    expect(CURRENCY_NETWORKS.USDT).toEqual(['ethereum', 'tron']);
    expect(checkCryptoAddress('USDT', USDT_TRON)).toMatchObject({ ok: true, network: 'tron' });
    expect(checkCryptoAddress('USDT', USDT_ETHEREUM)).toMatchObject({ ok: true, network: 'ethereum' });
    expect(checkCryptoAddress('USDT', USDT_ETHEREUM, 'ethereum')).toMatchObject({ ok: true, network: 'ethereum' });
    expect(checkCryptoAddress('USDT', USDT_TRON, 'ethereum')).toEqual({ ok: false, code: 'cryptoNetwork' });
    expect(checkCryptoAddress('USDT', USDT_ETHEREUM, 'tron')).toEqual({ ok: false, code: 'cryptoNetwork' });
    // a corrupted Tron address is a checksum error, not "no Ethereum address"
    expect(checkCryptoAddress('USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toEqual({ ok: false, code: 'cryptoChecksum' });
  });

  it('refuses currencies and networks it does not pay out', () => {
    expect(checkCryptoAddress('DOGE', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L')).toEqual({ ok: false, code: 'cryptoCurrencyUnsupported' });
    expect(checkCryptoAddress('USDC', USDT_TRON, 'tron')).toEqual({ ok: false, code: 'cryptoCurrencyUnsupported' });
  });
});
