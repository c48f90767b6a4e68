import { describe, expect, it } from 'vitest';
import { loginPathOf, realmOfPath, tokenKeyOf } from './realm';

describe('realmOfPath', () => {
  it.each([
    ['/admin/home', 'ADMIN'],
    ['/admin/login', 'ADMIN'],
    ['/expert/review', 'EXPERT'],
    ['/expert/login', 'EXPERT'],
    ['/my-sign', 'USER'],
    ['/', 'USER'],
    ['/login', 'USER'],
  ] as const)('%s -> %s', (path, realm) => {
    expect(realmOfPath(path)).toBe(realm);
  });
});

describe('tokenKeyOf / loginPathOf', () => {
  it('maps realms to their storage keys', () => {
    expect(tokenKeyOf('USER')).toBe('AccessToken');
    expect(tokenKeyOf('ADMIN')).toBe('AdminToken');
    expect(tokenKeyOf('EXPERT')).toBe('ExpertToken');
  });

  it('maps staff realms to their login pages', () => {
    expect(loginPathOf('ADMIN')).toBe('/admin/login');
    expect(loginPathOf('EXPERT')).toBe('/expert/login');
  });
});
