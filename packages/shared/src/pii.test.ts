import { describe, expect, it } from 'vitest';
import { ADMIN_BUTTONS } from './admin-menus.js';
import { PII_VIEW_BUTTON, isMaskedPii, maskContact, maskCreditCode, maskEmail, maskPhone } from './pii.js';

describe('personal information masks', () => {
  it('phones keep the first three and the last four digits', () => {
    expect(maskPhone('13800000005')).toBe('138****0005');
    expect(maskPhone(' 13912345678 ')).toBe('139****5678');
    expect(maskPhone('12345')).toBe('1***');
    expect(maskPhone(null)).toBeNull();
    expect(maskPhone('')).toBe('');
  });

  it('addresses keep their first letter and the domain', () => {
    expect(maskEmail('zhang@example.com')).toBe('z***@example.com');
    expect(maskEmail('a@b.cn')).toBe('a***@b.cn');
    expect(maskEmail('not-an-address')).toBe('n***');
    expect(maskEmail(undefined)).toBeUndefined();
  });

  it('credit codes keep the first four and the last four characters, and their length', () => {
    expect(maskCreditCode('91110000123456789X')).toBe('9111**********789X');
    expect(maskCreditCode('91110000123456789X')).toHaveLength(18);
    expect(maskCreditCode('ABC')).toBe('A***');
    expect(maskCreditCode(null)).toBeNull();
  });

  it('free-text contacts mask the phones and addresses in them, or the whole text', () => {
    expect(maskContact('电话 13900000000，邮箱 li@example.com')).toBe('电话 139****0000，邮箱 l***@example.com');
    expect(maskContact('1234567890@qq.com')).toBe('1***@qq.com');
    expect(maskContact('wechat_zhang')).toBe('w***');
    expect(maskContact(null)).toBeNull();
  });

  it('every mask is recognisable as one; real values are not', () => {
    for (const masked of [maskPhone('13800000005'), maskEmail('z@x.cn'), maskCreditCode('91110000123456789X'), maskContact('abc')]) {
      expect(isMaskedPii(masked)).toBe(true);
    }
    for (const real of ['13800000005', 'z@x.cn', '91110000123456789X', null, '']) expect(isMaskedPii(real)).toBe(false);
  });

  it('the reveal button is in the menu tree', () => {
    expect(ADMIN_BUTTONS.map((b) => b.code)).toContain(PII_VIEW_BUTTON);
  });
});
