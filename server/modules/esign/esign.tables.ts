/**
 * The built-in e-signature adapter (server/modules/esign): an envelope is what one signer is asked
 * to sign for one purpose (a tax certification's forms, later a contract); each of its documents
 * has its own sign URL, whose secret is stored as SHA-256 only. The unsigned PDF is kept so the
 * signing page shows exactly what is signed; the signed PDF, its hash, the typed name, the drawn
 * signature's strokes, the time and the signer's address are kept as the evidence.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { businessRepresentatives } from '../business/business.tables.ts';
import { customers, users } from '../customers/customers.tables.ts';
import { bytea, customerDocuments } from '../profile/profile.tables.ts';

export const esignEnvelopes = pgTable(
  'esign_envelopes',
  {
    id: serial('id').primaryKey(),
    /** the public id answered as signData.clientId (random, not guessable) */
    clientId: text('client_id').notNull(),
    /** which completion handler files the signed documents: 'taxForms' (later 'contract') */
    purpose: text('purpose').notNull(),
    /** the adapter that serves it: 'builtin' */
    adapter: text('adapter').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    representativeId: integer('representative_id').references(() => businessRepresentatives.id),
    /** the user who asked for it; null for a representative's link */
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    signerName: text('signer_name').notNull(),
    signerEmail: text('signer_email'),
    /** what the purpose's handler needs to file the documents (e.g. the certification's id and version) */
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default({}),
    /** where the signing page sends the signer when every document is signed (an app path) */
    returnPath: text('return_path').notNull(),
    status: text('status', { enum: ['sent', 'completed', 'voided', 'expired'] })
      .notNull()
      .default('sent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('esign_envelopes_client').on(t.clientId), index('esign_envelopes_customer').on(t.customerId, t.purpose)],
);

export const esignDocuments = pgTable(
  'esign_documents',
  {
    id: serial('id').primaryKey(),
    envelopeId: integer('envelope_id')
      .notNull()
      .references(() => esignEnvelopes.id),
    /** its place in the envelope (signing order) */
    position: integer('position').notNull(),
    /** e.g. 'w8Ben', 'taxResidencySelfCertification' */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    /** SHA-256 (hex) of the sign URL's secret */
    tokenHash: text('token_hash').notNull(),
    unsignedPdf: bytea('unsigned_pdf').notNull(),
    unsignedSha256: text('unsigned_sha256').notNull(),
    signedPdf: bytea('signed_pdf'),
    signedSha256: text('signed_sha256'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signerTypedName: text('signer_typed_name'),
    /** the drawn signature: strokes of [x, y] points in a 0-1000 x 0-300 box */
    signatureStrokes: jsonb('signature_strokes').$type<number[][][]>(),
    signerIp: text('signer_ip'),
    signerUserAgent: text('signer_user_agent'),
    /** the customer document the purpose's handler filed it as */
    documentId: integer('document_id').references(() => customerDocuments.id),
  },
  (t) => [
    uniqueIndex('esign_documents_token').on(t.tokenHash),
    uniqueIndex('esign_documents_position').on(t.envelopeId, t.position),
    check('esign_documents_signed_whole', sql`(${t.signedAt} is null) = (${t.signedPdf} is null)`),
  ],
);
