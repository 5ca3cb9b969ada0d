/**
 * Brotli and gzip copies of the built web app's text files, made once at build time (the vite
 * plugin `precompress` in vite.config.ts), so the platform serves them with @fastify/static's
 * `preCompressed` instead of compressing on every request (issue 12: the app's JavaScript went out
 * uncompressed, 495 KiB for a cold /login). Brotli at its highest quality costs build time only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Text formats worth compressing; images and fonts are compressed formats already. Source maps are
 * left out: only developer tools fetch them, and brotli at its highest quality spent half the
 * build on their 5.7 MB (vite build 20.7 s -> 9.9 s without them).
 */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/**
 * Below this a compressed copy saves too little to be worth a file: its Content-Encoding header
 * costs about 25 bytes. At 512 bytes brotli still saves some 40% (the bundler's runtime chunk
 * that every page loads, 726 bytes, went out whole at the old 1 kB floor).
 */
export const MIN_COMPRESS_BYTES = 512;

/** Writes `file.br` and `file.gz` next to a compressible file; true when it did. */
export function precompressFile(file: string): boolean {
  if (!COMPRESSIBLE.test(file)) return false;
  const content = readFileSync(file);
  if (content.length < MIN_COMPRESS_BYTES) return false;
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  return true;
}
