import { describe, expect, it } from 'vitest';
import { VALIDATION_MSG as V } from '../messages.js';
import { changePasswordSchema, loginSchema, phoneSchema, registerSchema } from './auth.js';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('auth schemas', () => {
  it.each([
    ['', V.phoneRequired],
    ['1380000000', V.phoneLength],
    ['138000000001', V.phoneLength],
    ['12800000000', V.phoneFormat],
    ['1380000000a', V.phoneFormat],
    ['13800000000', null],
  ])('phone %j -> %s', (phone, message) => {
    expect(firstMessage(phoneSchema.safeParse(phone))).toBe(message);
  });

  it('register reports the spec messages in order', () => {
    const ok = { username: 'team01', password: 'Abc@1234', email: 'a@b.cn', phone: '13800000000', smsCode: '123456' };
    expect(registerSchema.safeParse(ok).success).toBe(true);
    expect(firstMessage(registerSchema.safeParse({ ...ok, username: 'Team01' }))).toBe(V.usernameFormat);
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: '' }))).toBe(V.loginPasswordRequired);
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: 'abcdefgh1' }))).toBe(V.passwordRule);
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: 'Ab@1' }))).toBe(V.passwordRule);
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: 'Abcdefgh@12345678' }))).toBe(V.passwordRule);
    expect(firstMessage(registerSchema.safeParse({ ...ok, email: '' }))).toBe(V.emailRequired);
    expect(firstMessage(registerSchema.safeParse({ ...ok, email: 'a@b' }))).toBe(V.emailFormat);
    expect(firstMessage(registerSchema.safeParse({ ...ok, smsCode: '' }))).toBe(V.codeRequired);
    expect(firstMessage(registerSchema.safeParse({ ...ok, smsCode: '12345a' }))).toBe(V.codeFormat);
  });

  it('login picks the mode from isPhoneLogin', () => {
    expect(loginSchema.safeParse({ username: 'u', password: 'p' }).success).toBe(true);
    expect(loginSchema.safeParse({ isPhoneLogin: 'true', phone: '13800000000', smsCode: '123456' }).success).toBe(true);
    expect(firstMessage(loginSchema.safeParse({ password: 'p' }))).toBe(V.usernameRequired);
    expect(firstMessage(loginSchema.safeParse({ username: 'u' }))).toBe(V.passwordRequired);
    expect(firstMessage(loginSchema.safeParse({ isPhoneLogin: true, phone: '13800000000' }))).toBe(V.codeRequired);
  });

  it('a new password must differ from the old one', () => {
    expect(firstMessage(changePasswordSchema.safeParse({ oldPassword: 'Abc@1234', newPassword: 'Abc@1234' }))).toBe(V.passwordSame);
  });
});
