import { describe, expect, it } from 'vitest';
import { getToken, removeToken, saveRedirectPath, setToken, takeRedirectPath } from './session';

describe('session', () => {
  it('keeps one token per realm under the shared keys', () => {
    setToken('USER', 'u');
    setToken('ADMIN', 'a');
    setToken('EXPERT', 'e');
    expect(localStorage.getItem('AccessToken')).toBe('u');
    expect(localStorage.getItem('AdminToken')).toBe('a');
    expect(localStorage.getItem('ExpertToken')).toBe('e');
    removeToken('ADMIN');
    expect(getToken('ADMIN')).toBeNull();
    expect(getToken('USER')).toBe('u');
  });

  it('returns the saved path once', () => {
    saveRedirectPath('/my-sign/detail?id=3');
    expect(takeRedirectPath('USER')).toBe('/my-sign/detail?id=3');
    expect(takeRedirectPath('USER')).toBeNull();
  });

  it('only follows a same-site path of the realm logging in', () => {
    saveRedirectPath('/admin/home');
    expect(takeRedirectPath('USER')).toBeNull();
    saveRedirectPath('/admin/home');
    expect(takeRedirectPath('ADMIN')).toBe('/admin/home');
    saveRedirectPath('/my-sign');
    expect(takeRedirectPath('EXPERT')).toBeNull();

    for (const evil of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
      sessionStorage.setItem('redirectPath', evil);
      expect(takeRedirectPath('USER')).toBeNull();
    }
  });
});
