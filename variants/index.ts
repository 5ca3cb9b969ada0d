/**
 * The variant this build is for: VARIANT at build time (vite.config.ts defines
 * import.meta.env.VARIANT), 'wallet' by default. The platform imports the same data (pass the id
 * to getVariant); nothing here touches the DOM.
 */
import * as v from 'valibot';
import { VariantSchema, variantIds, type Variant, type VariantId } from './schema.ts';
import { variantInputs } from './inputs.ts';

export { variantInputs };

export function isVariantId(id: unknown): id is VariantId {
  return typeof id === 'string' && (variantIds as readonly string[]).includes(id);
}

/** The validated variant; an unknown id or invalid data throws (a build must not ship it). */
export function getVariant(id: string): Variant {
  if (!isVariantId(id)) throw new Error(`unknown variant "${id}"; expected one of ${variantIds.join(', ')}`);
  return v.parse(VariantSchema, variantInputs[id]);
}

function buildVariantId(): string {
  let fromVite: string | undefined;
  try {
    // Vite replaces this exact expression with the build's VARIANT (vite.config.ts `define`);
    // under plain Node (the platform) import.meta.env is undefined and this throws.
    fromVite = import.meta.env.VARIANT;
  } catch {
    fromVite = undefined;
  }
  const fromNode = typeof process !== 'undefined' ? process.env?.VARIANT : undefined;
  return fromVite ?? fromNode ?? 'wallet';
}

export const activeVariant: Variant = getVariant(buildVariantId());
