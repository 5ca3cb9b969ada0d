/** Constants of the HTTP contract (document 1 §7, §9). */
export const CLIENT_VERSION = '2.1.2';
export const CLIENT_VERSION_HEADER = 'X-Client-Version';
/** The company a business user acts for, sent as a header alongside fromCustomerId. */
export const CUSTOMER_ID_HEADER = 'Customer-Id';
export const REQUEST_TIMEOUT_MS = 5 * 60 * 1000;
/** The versioned base of the named-method API under a platform's origin. */
export const API_VERSION_PATH = '/api/v1';
