import { describe, expect, it } from 'vitest';
import { conflictBetween, normaliseCreditCode, normaliseOrgName, type ExpertOrgs } from './organisation.js';
import { maskCreditCode } from '../pii.js';

describe('normaliseOrgName', () => {
  it('folds full-width letters, case and spaces, and drops the legal suffix', () => {
    expect(normaliseOrgName('ＡＢＣ医疗 科技有限责任公司')).toBe('abc医疗科技');
    expect(normaliseOrgName('ＡＢＣ医疗 科技有限责任公司')).toBe(normaliseOrgName('abc医疗科技'));
    expect(normaliseOrgName('北京某某科技有限公司')).toBe('北京某某科技');
    expect(normaliseOrgName('  北京　某某\t科技 股份有限公司 ')).toBe('北京某某科技');
  });

  it('removes brackets of every kind but keeps their text, so a bracketed suffix still goes', () => {
    // Decided: '（有限公司）' is the same legal form written in brackets, so the names are equal.
    expect(normaliseOrgName('北京某某科技（有限公司）')).toBe(normaliseOrgName('北京某某科技有限公司'));
    expect(normaliseOrgName('某某（集团）股份有限公司')).toBe('某某');
    expect(normaliseOrgName('某某(北京)科技有限公司')).toBe('某某北京科技');
    expect(normaliseOrgName('【某某】〔北京〕[医疗]〖数据〗《科技》「研究」院')).toBe('某某北京医疗数据科技研究院');
    expect(normaliseOrgName('［ＡＢＣ］｛数据｝')).toBe('abc数据');
  });

  it('strips suffixes repeatedly, longest first', () => {
    expect(normaliseOrgName('某某集团股份有限公司')).toBe('某某');
    expect(normaliseOrgName('某某集团公司')).toBe('某某');
    expect(normaliseOrgName('某某集团')).toBe('某某');
    expect(normaliseOrgName('某某责任公司')).toBe('某某');
    expect(normaliseOrgName('某某公司')).toBe('某某');
  });

  it('keeps what names an institution, and a branch', () => {
    expect(normaliseOrgName('某某医院')).toBe('某某医院');
    expect(normaliseOrgName('某某大学')).toBe('某某大学');
    expect(normaliseOrgName('某某研究院')).toBe('某某研究院');
    expect(normaliseOrgName('某某公司北京分公司')).toBe('某某公司北京分公司');
    expect(normaliseOrgName('某某医院')).not.toBe(normaliseOrgName('某某'));
  });

  it('drops Latin suffixes only as whole words', () => {
    expect(normaliseOrgName('ABC Co., Ltd.')).toBe('abc');
    expect(normaliseOrgName('ＡＢＣ　ＣＯ．，ＬＴＤ')).toBe('abc');
    expect(normaliseOrgName('ABC Co.,Ltd')).toBe('abc');
    expect(normaliseOrgName('ABC Ltd')).toBe('abc');
    expect(normaliseOrgName('ABC Inc.')).toBe('abc');
    expect(normaliseOrgName('ABC (Inc)')).toBe('abc');
    expect(normaliseOrgName('Acme Company Limited')).toBe('acme');
    expect(normaliseOrgName('Global Zinc')).toBe('globalzinc');
    expect(normaliseOrgName('Medincltd')).toBe('medincltd');
  });

  it('never folds a name to nothing, and an empty name is empty', () => {
    expect(normaliseOrgName('有限公司')).toBe('有限公司');
    expect(normaliseOrgName('集团有限公司')).toBe('集团');
    expect(normaliseOrgName('')).toBe('');
    expect(normaliseOrgName('  ')).toBe('');
    expect(normaliseOrgName(null)).toBe('');
    expect(normaliseOrgName(undefined)).toBe('');
  });

  it('is idempotent', () => {
    for (const name of ['ＡＢＣ医疗 科技有限责任公司', '某某（集团）股份有限公司', 'ABC Co., Ltd.', '某某医院', '有限公司']) {
      expect(normaliseOrgName(normaliseOrgName(name))).toBe(normaliseOrgName(name));
    }
  });
});

describe('normaliseCreditCode', () => {
  it('trims and upper-cases', () => {
    expect(normaliseCreditCode(' 91110000abc ')).toBe('91110000ABC');
    expect(normaliseCreditCode(null)).toBe('');
  });
});

describe('conflictBetween', () => {
  const CODE_A = '91110000100000000A';
  const CODE_B = '91110000100000000B';
  const expert = (own: ExpertOrgs['own'], declared: ExpertOrgs['declared'] = []): ExpertOrgs => ({ own, declared });

  it('matches on the credit code first, whatever the names', () => {
    const cause = conflictBetween(expert({ name: '甲公司', creditCode: CODE_A.toLowerCase() }), { name: '乙有限公司', creditCode: ` ${CODE_A} ` });
    expect(cause).toEqual({ kind: 'CREDIT_CODE', via: 'OWN', expertOrg: '甲公司', teamOrg: '乙有限公司', text: `同一统一社会信用代码 ${maskCreditCode(CODE_A)}` });
    // The console shows every credit code masked: the kind says they match (docs/rules/admin.md, "Personal information").
    expect(cause?.text).toBe('同一统一社会信用代码 9111**********000A');
  });

  it('takes a code match of a declared organisation before a name match of the own one', () => {
    const cause = conflictBetween(expert({ name: '某某科技有限公司' }, [{ name: '某某数据', creditCode: CODE_A }]), { name: '某某科技', creditCode: CODE_A });
    expect(cause?.kind).toBe('CREDIT_CODE');
    expect(cause?.via).toBe('DECLARED');
    expect(cause?.text).toBe(`专家申报回避：某某数据；同一统一社会信用代码 ${maskCreditCode(CODE_A)}`);
  });

  it('compares names when either side has no code', () => {
    const own = conflictBetween(expert({ name: 'ＡＢＣ医疗 科技有限责任公司', creditCode: CODE_A }), { name: 'abc医疗科技', creditCode: null });
    expect(own).toEqual({ kind: 'NAME', via: 'OWN', expertOrg: 'ＡＢＣ医疗 科技有限责任公司', teamOrg: 'abc医疗科技', text: '单位名称相同（规范化后：abc医疗科技）' });
    const teamCoded = conflictBetween(expert({ name: '某某医院' }), { name: '某某医院', creditCode: CODE_B });
    expect(teamCoded?.kind).toBe('NAME');
  });

  it('treats different codes as different organisations, even under one name', () => {
    expect(conflictBetween(expert({ name: '某某集团有限公司', creditCode: CODE_A }), { name: '某某集团有限公司', creditCode: CODE_B })).toBeNull();
    // …but a declared organisation without a code still matches by name.
    const declared = conflictBetween(expert({ name: '某某集团有限公司', creditCode: CODE_A }, [{ name: '某某集团' }]), { name: '某某集团有限公司', creditCode: CODE_B });
    expect(declared).toEqual({ kind: 'NAME', via: 'DECLARED', expertOrg: '某某集团', teamOrg: '某某集团有限公司', text: '专家申报回避：某某集团；单位名称相同（规范化后：某某）' });
  });

  it('prefers the own organisation to a declared one of the same kind', () => {
    const cause = conflictBetween(expert({ name: '某某有限公司' }, [{ name: '某某公司' }]), { name: '某某' });
    expect(cause?.via).toBe('OWN');
    const second = conflictBetween(expert({ name: '甲' }, [{ name: '乙' }, { name: '丙有限公司' }, { name: '丙' }]), { name: '丙' });
    expect(second?.expertOrg).toBe('丙有限公司');
  });

  it('finds nothing for unrelated or empty organisations', () => {
    expect(conflictBetween(expert({ name: '某某医院' }), { name: '某某' })).toBeNull();
    expect(conflictBetween(expert({ name: '' }), { name: '' })).toBeNull();
    expect(conflictBetween(expert({ name: null, creditCode: '' }), { name: undefined, creditCode: ' ' })).toBeNull();
    expect(conflictBetween(expert({ name: '甲' }, [{ name: null, creditCode: CODE_A }]), { name: '乙', creditCode: CODE_B })).toBeNull();
  });

  it('names a declared organisation given by its code alone by that code', () => {
    const cause = conflictBetween(expert({ name: '甲' }, [{ name: null, creditCode: CODE_A }]), { name: '乙', creditCode: CODE_A });
    expect(cause?.expertOrg).toBe(CODE_A);
  });
});
