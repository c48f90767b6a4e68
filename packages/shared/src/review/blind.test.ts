import { describe, expect, it } from 'vitest';
import { findTeamNames, maskAccountName, maskPersonName, neutralFileName, projectCodeOf } from './blind.js';

describe('neutral file names', () => {
  it('name the project by code and the material by kind', () => {
    const id = '3f2a9c1b-0d4e-4a5b-8c6d-7e8f9a0b1c2d';
    expect(projectCodeOf(id)).toBe('P-3F2A9C1B');
    expect(neutralFileName(id, 'application', 'pdf')).toBe('P-3F2A9C1B-申报书.pdf');
    expect(neutralFileName(id, 'presentation', 'pptx')).toBe('P-3F2A9C1B-演示文稿.pptx');
    expect(neutralFileName(id, 'video', 'mp4')).toBe('P-3F2A9C1B-演示视频.mp4');
    expect(neutralFileName(id, 'other', 'docx', 1)).toBe('P-3F2A9C1B-附件2.docx');
  });

  it('mask accounts as the screen watermark does', () => {
    expect(maskAccountName('e0001')).toBe('e***1');
    expect(maskAccountName('13800000001')).toBe('138****0001');
    expect(maskAccountName('ab')).toBe('a*');
  });

  it('mask names as Chinese forms do: first character, and the last from three on', () => {
    expect(maskPersonName('张明')).toBe('张*');
    expect(maskPersonName(' 张晓明 ')).toBe('张*明');
    expect(maskPersonName('欧阳晓明')).toBe('欧**明');
    expect(maskPersonName('李')).toBe('李');
    expect(maskPersonName('')).toBe('');
    expect(maskPersonName('Alice')).toBe('A***e');
  });
});

describe('findTeamNames', () => {
  const team = { orgName: '北京智审科技有限公司', teamName: '智审先锋队' };

  it('finds the organisation by its folded core in the text, across spaces, width and brackets', () => {
    expect(findTeamNames({ text: '本方案由北京 智审科技（集团）团队完成', metadata: {} }, team)).toEqual([{ where: 'text', name: 'orgName', value: '北京智审科技有限公司' }]);
    expect(findTeamNames({ text: '北京ＡＢ', metadata: {} }, { orgName: 'AB有限公司', teamName: '' })).toEqual([]);
    expect(findTeamNames({ text: '北京ＡＢＣＤ', metadata: {} }, { orgName: 'abcd有限公司', teamName: '' })).toHaveLength(1);
  });

  it('names the metadata field where the team appears', () => {
    expect(findTeamNames({ text: '正文', metadata: { Author: '智审先锋队 张三', Title: '申报书' } }, team)).toEqual([{ where: 'Author', name: 'teamName', value: '智审先锋队' }]);
  });

  it('finds nothing in a neutral document, and never looks for names too short to mean anything', () => {
    expect(findTeamNames({ text: '基于大模型的医保智能审核方案', metadata: { Author: 'user' } }, team)).toEqual([]);
    expect(findTeamNames({ text: '某医院的方案', metadata: {} }, { orgName: '医院', teamName: 'AB' })).toEqual([]);
  });
});
