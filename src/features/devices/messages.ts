/** The words for the link-device machine's codes (Lingui message descriptors; views translate). */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { LinkErrorCode } from '../../../machines/link-device/link-device.machine.ts';

export const linkErrorMessages: Record<LinkErrorCode, MessageDescriptor> = {
  network: msg`Network error. Check your connection and try again.`,
  rateLimited: msg`Too many attempts. Please wait a while and try again.`,
  phoneInvalid: msg`This phone number cannot receive the link.`,
  unknown: msg`Something went wrong. Please try again.`,
};
