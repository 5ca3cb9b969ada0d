/**
 * The built-in e-signature's signing page over REST (server/modules/esign/esign.routes.ts). Not
 * shown in the spec: document 3 §3 names only signData (clientId and signUrls); the paths and
 * bodies here are ours. No sign-in: the secret in the path authorises (a sign URL is
 * `<publicUrl>/e-sign/<token>`, the web app's page, which calls these):
 *
 * - GET  /api/v1/e-signature/{token}      the document's and its envelope's state (EsignStateSchema)
 * - GET  /api/v1/e-signature/{token}/pdf  the PDF: the unsigned one, or the signed one once signed
 * - POST /api/v1/e-signature/{token}/sign { typedName, strokes, consent: true } (EsignSignBodySchema)
 *   -> EsignSignedSchema: the signed document and the next document to sign (or none)
 *
 * Errors are the envelope's `{ responseCode, responseDescription, validationErrors? }`:
 * - 404 ENOA: the token names no document (or is malformed);
 * - 410 VF token codeExpired: the envelope's seven days are over; 410 VF token requestNotActive
 *   {status: 'voided'}: a newer envelope replaced it (the signer asked again);
 * - 409 VF token alreadyAccepted: the document is signed already (a second press, a retry);
 * - 400 VF: typedName (required, tooShort {min}, tooLong {max}, controlCharacters), strokes
 *   (wrongType, tooManyItems {max}, tooFewItems {min} for a stroke's points, tooManyItems {max},
 *   tooSmall / tooLarge for a point outside the box), consent (mustAccept).
 */
import * as v from 'valibot';
import { API_VERSION_PATH } from './http.ts';

export const esignStateRoute = `${API_VERSION_PATH}/e-signature/:token`;
export const esignPdfRoute = `${API_VERSION_PATH}/e-signature/:token/pdf`;
export const esignSignRoute = `${API_VERSION_PATH}/e-signature/:token/sign`;

export const esignStatePath = (token: string) => `${API_VERSION_PATH}/e-signature/${encodeURIComponent(token)}`;
export const esignPdfPath = (token: string) => `${esignStatePath(token)}/pdf`;
export const esignSignPath = (token: string) => `${esignStatePath(token)}/sign`;

/** The web app's signing page of a token (the sign URL without the origin). */
export const esignPagePath = (token: string) => `/e-sign/${encodeURIComponent(token)}`;

/**
 * A sign URL's token: the envelope's secret (256 random bits, base64url) and the document's
 * position, `<secret>~<position>` (server/modules/esign/builtin.ts says why). Not a dot: the web
 * server's history fallback takes a last path segment with a dot for a file and answers 404.
 */
export const ESIGN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}~[0-9]{1,3}$/;

/** The drawing box of the signature pad: strokes' points are [x, y] in 0..1000 x 0..300 (y downwards). */
export const SIGNATURE_BOX = { width: 1000, height: 300 } as const;
export const SIGNATURE_LIMITS = { maxStrokes: 50, minPoints: 2, maxPoints: 1000 } as const;
export const TYPED_NAME_LIMITS = { min: 2, max: 100 } as const;

export const EsignEnvelopeStatusSchema = v.picklist(['sent', 'completed', 'voided', 'expired']);
export type EsignEnvelopeStatus = v.InferOutput<typeof EsignEnvelopeStatusSchema>;

export const EsignDocumentSchema = v.object({
  /** 1-based place in the envelope */
  position: v.number(),
  count: v.number(),
  kind: v.string(),
  title: v.string(),
  fileName: v.string(),
  /** pages of the unsigned PDF (the signed one has one more: the signature certificate) */
  pageCount: v.number(),
  signed: v.boolean(),
  signedAt: v.nullable(v.string()),
});
export type EsignDocument = v.InferOutput<typeof EsignDocumentSchema>;

export const EsignStateSchema = v.object({
  envelope: v.object({
    clientId: v.string(),
    status: EsignEnvelopeStatusSchema,
    signerName: v.string(),
    returnPath: v.string(),
    expiresAt: v.string(),
  }),
  document: EsignDocumentSchema,
  /** the token of the envelope's next unsigned document (after this one, else the first before it), or null */
  next: v.nullable(v.string()),
});
export type EsignState = v.InferOutput<typeof EsignStateSchema>;

export interface EsignSignBody {
  typedName: string;
  /** the drawn signature; empty when the signer adopts the typed name as the signature (keyboard only, WCAG 2.5.7) */
  strokes: number[][][];
  consent: true;
}

export const EsignSignedSchema = v.object({
  responseCode: v.literal('00'),
  envelope: v.object({ status: EsignEnvelopeStatusSchema }),
  document: EsignDocumentSchema,
  next: v.nullable(v.string()),
});
export type EsignSigned = v.InferOutput<typeof EsignSignedSchema>;
