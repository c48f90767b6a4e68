/**
 * Helpers for tests that replace the app's HTTP client calls with vi.spyOn(api, ...): the
 * envelope a successful call resolves with and the ApiError a refused one rejects with.
 */
import { DIRECT_UPLOAD_REASONS, UPLOAD_MSG, type ApiEnvelope } from '@contest/shared';
import { ApiError } from '../api';

export function ok<T>(data: T, message = ''): ApiEnvelope<T> {
  return { status: 200, code: 'OK', message, data };
}

export function refused(message: string, data: unknown = null, status = 400): ApiError {
  return new ApiError({ status, code: status === 400 ? 'BAD_REQUEST' : 'INTERNAL', message, data });
}

/**
 * What a disk-store server answers the uploader's direct start (docs/uploader.md, "Direct
 * upload"): the uploader then sends pieces. For page tests whose API mock takes piece uploads.
 */
export const directUnavailable = (): ApiError => refused(UPLOAD_MSG.directUnavailable, { reason: DIRECT_UPLOAD_REASONS.unavailable });

export const participantInfo = (name = 'demo1') => ({
  account: { name, permissionCodeList: ['*'], roleCode: 'USER' },
  teamStatus: null,
  prelimDocStatus: null,
  hasUnReadMessage: false,
  agree: false,
  watermark: name,
  dataDocMenuName: '数据文档',
  user: {
    roleId: null,
    organizationType: null,
    organization: null,
    account: { name, phone: '13800000001' },
  },
});
