/**
 * Linked devices and approval requests (document 1 §3, §5, §7; document 2 "Security settings").
 *
 * A linked device is the customer's phone running the device companion (served by the platform
 * at DEVICE_COMPANION_PATH; an installable web page). Linking:
 *   1. the signed-in user POSTs /auth/devices: a pending device with a short code and a QR link;
 *   2. the companion (scanning the QR or typing the code) POSTs /auth/devices/{id}/approve with the
 *      code, its type, name and push token: the device is approved and receives its secret once;
 *   3. the companion signs in with POST /auth/token { secret } (a device token) and listens on the
 *      live channel (api/push.ts DEVICE_SUBSCRIPTION) for approval requests, which it answers with
 *      PUT /auth/login/{key}/confirm { result }.
 * A device's approval methods say what it may approve (login, twoStepMode); PATCH toggles one.
 *
 * Every error is `{ message }` with 403 or 404 (api/auth.ts AuthErrorSchema).
 */
import * as v from 'valibot';
import { VfCode } from './errors.ts';
import { DeviceTypeSchema } from './auth.ts';
import { Id } from './method.ts';

export const DEVICE_COMPANION_PATH = '/device/';

export const devicePaths = {
  /** GET (bearer): the user's devices; POST (bearer): start linking a device */
  devices: '/auth/devices',
  /** GET / DELETE (bearer) */
  device: (id: number) => `/auth/devices/${id}`,
  /** POST, no bearer: the companion completes linking with the code */
  approve: (id: number) => `/auth/devices/${id}/approve`,
  /** PATCH (bearer): turn one approval method on or off */
  approveMethod: (id: number, methodId: number) => `/auth/devices/${id}/approve/${methodId}`,
  /** GET, no bearer: the approval methods a device can have */
  approveMethods: '/auth/devices/approve-methods',
  /** GET (device bearer): the device itself and its pending approval requests */
  deviceApi: '/device-api/device',
  /** DELETE (device bearer): the device unlinks itself */
  deviceApiDevice: (id: number) => `/device-api/device/${id}`,
} as const;

/**
 * Approval methods: what a linked device may approve. A pending transfer of a customer whose
 * approve mode is push (approval kind 'transfer') goes to the devices with the login method: a
 * phone trusted to sign the user in is trusted with their payments, and every phone linked before
 * transfers existed can approve them (a method of its own would have needed each turned on).
 */
export const ApproveMethod = { login: 1, twoStepMode: 2 } as const;
export const ApproveMethodSchema = v.object({ id: v.number(), name: v.picklist(['login', 'twoStepMode']) });
export const ApproveMethodsResponseSchema = v.object({ methods: v.array(ApproveMethodSchema) });

export const DeviceSchema = v.object({
  id: v.number(),
  /** pending (linking not finished), approved, revoked */
  status: v.picklist(['pending', 'approved']),
  type: v.nullable(DeviceTypeSchema),
  name: v.string(),
  /** where it was linked or last seen: a country code from the IP information service, or null */
  location: v.nullable(v.string()),
  lastActivityAt: v.nullable(v.string()),
  createdAt: v.string(),
  /** ids of ApproveMethod the device may approve */
  approveMethodIds: v.array(v.number()),
  /** true for the device the push token was last registered on (never the token itself) */
  hasPushToken: v.boolean(),
});
export type Device = v.InferOutput<typeof DeviceSchema>;

export const DeviceListResponseSchema = v.object({ devices: v.array(DeviceSchema) });

/** POST /auth/devices: a name the user gives the phone, e.g. "My phone". */
export const DeviceCreateRequestSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(60, 'must be at most 60 characters')),
});
export const DeviceCreateResponseSchema = v.object({
  device: DeviceSchema,
  /** 8 characters (A-Z 2-9, no look-alikes) the user may type into the companion */
  code: v.string(),
  /** the companion URL with id and code, shown as a QR code */
  qrLink: v.string(),
  expiresInS: v.number(),
});

/** POST /auth/devices/{id}/approve (no bearer): completes linking. */
export const DeviceApproveRequestSchema = v.object({
  code: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.minLength(1, 'is required'), v.maxLength(16)),
  type: DeviceTypeSchema,
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60))),
  pushToken: v.optional(v.pipe(v.string(), v.maxLength(512))),
});
/** The secret is shown exactly once, to the device; the platform keeps only its hash. */
export const DeviceApproveResponseSchema = v.object({ device: DeviceSchema, secret: v.string() });

/** PATCH /auth/devices/{id}/approve/{methodId} */
export const DeviceApproveMethodRequestSchema = v.object({ enabled: v.boolean() });

/** What a device is asked to approve; shown on the companion with its details. */
export const ApprovalKindSchema = v.picklist(['login', 'twoStepMode', 'transfer']);
/** A pending transfer (kind 'transfer'): what the phone shows before the user approves it. */
export const ApprovalTransferSchema = v.object({
  transactionId: v.number(),
  /** decimal major units ("12.50") of `currency`, the amount leaving the account (fee excluded) */
  amount: v.string(),
  currency: v.string(),
  /** the fee on top, in `currency` */
  fee: v.optional(v.string()),
  /** who receives it: a person's or company's name, or the customer's own account */
  payeeName: v.string(),
});
export const ApprovalRequestSchema = v.object({
  /** the key in PUT /auth/login/{key}/confirm */
  key: v.string(),
  kind: ApprovalKindSchema,
  /** address and browser of the sign-in or the settings change, for the user to recognise */
  ip: v.string(),
  countryCode: v.nullable(v.string()),
  userAgent: v.string(),
  /** for twoStepMode: the mode being set (1 push, 2 sms, 3 otp, 4 approvalCode) */
  mode: v.optional(v.number()),
  /** for transfer: the amount and the payee */
  transfer: v.optional(ApprovalTransferSchema),
  createdAt: v.string(),
  expiresAt: v.string(),
});
export type ApprovalRequest = v.InferOutput<typeof ApprovalRequestSchema>;

/** GET /device-api/device (device bearer) */
export const DeviceApiResponseSchema = v.object({
  device: DeviceSchema,
  /** the user's login, for the companion's header */
  login: v.string(),
  pending: v.array(ApprovalRequestSchema),
});

/** PUT /auth/login/{key}/confirm (device bearer): result true approves, false declines. */
export const LoginConfirmRequestSchema = v.object({ result: v.boolean() });
/** result: true when the answer was recorded (false: the request was already answered or expired) */
export const LoginConfirmResponseSchema = v.object({ result: v.boolean() });

/** POST /auth/push/re-send */
export const PushResendRequestSchema = v.object({
  temporaryToken: v.pipe(v.string(), v.minLength(1, 'is required')),
  /** verifyDevice: the device the user chose; push: omitted (every approved device) */
  deviceId: v.optional(Id),
});
export const PushResendResponseSchema = v.object({ expiresInS: v.number() });

/** POST /auth/scp/request (bearer): starts linking like POST /auth/devices, answered as a deeplink. */
export const ScpRequestResponseSchema = v.object({ deeplink: v.string(), code: v.string(), deviceId: v.number(), expiresInS: v.number() });

/** POST /auth/stores-urls/send: the companion's link by SMS (through the outbox). */
export const StoresUrlsSendRequestSchema = v.object({
  phoneNumber: v.pipe(v.string(), v.trim(), v.regex(/^\+?[0-9 ]{7,20}$/, VfCode.phoneFormat)),
});

/**
 * Where the device companion keeps its link on the phone (localStorage, same origin):
 * `{ deviceId, secret }`. The web app's sign-in sends the secret when present (the direct flow).
 */
export const DEVICE_LINK_STORAGE_KEY = 'wlb.device.link';
