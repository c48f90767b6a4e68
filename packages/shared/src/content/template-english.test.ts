import { describe, expect, it } from 'vitest';
import { TEAM_STATUS_LABELS } from '../admin/users.js';
import { PRELIM_DOC_STATUS_LABELS } from '../contest/status.js';
import { RESULT_OUTCOME_NAMES } from '../results/messages.js';
import { ROUND_NAMES } from '../review/access.js';
import { TEMPLATE_EVENTS_EN, englishTemplateVars } from './template-english.js';
import { TEMPLATE_EVENTS, TEMPLATE_EVENT_CODES, templateVariablesIn } from './templates.js';

const HAN = /\p{Script=Han}/u;

describe('English texts of the event notices', () => {
  it.each(TEMPLATE_EVENT_CODES)('%s: English for every Chinese text, no Chinese in it, and the same variables', (code) => {
    const zh = TEMPLATE_EVENTS[code].defaults;
    const en = TEMPLATE_EVENTS_EN[code];
    expect(!!en.subject && !!en.body).toBe(true);
    expect(!!en.smsText).toBe(!!zh.smsText);
    for (const [zhText, enText] of [
      [zh.subject, en.subject],
      [zh.body, en.body],
      [zh.smsText, en.smsText],
    ] as const) {
      expect(HAN.test(enText), enText).toBe(false);
      expect(new Set(templateVariablesIn(enText))).toEqual(new Set(templateVariablesIn(zhText)));
    }
  });
});

describe('englishTemplateVars', () => {
  it('says every round, status and outcome the services fill in English', () => {
    const values = [
      ...Object.values(ROUND_NAMES).map((v) => ({ round: v })),
      ...[...Object.values(TEAM_STATUS_LABELS), ...Object.values(PRELIM_DOC_STATUS_LABELS)].map((v) => ({ status: v })),
      ...Object.values(RESULT_OUTCOME_NAMES).map((v) => ({ result: v })),
    ];
    for (const vars of values) {
      const [value] = Object.values(englishTemplateVars(vars));
      expect(HAN.test(value!), JSON.stringify(vars)).toBe(false);
    }
    expect(englishTemplateVars({ round: '初赛', status: '退回修改', result: '一等奖' })).toEqual({ round: 'Preliminary Round', status: 'Returned for changes', result: 'First prize' });
  });

  it('turns the deadline hint into English and leaves names, reasons and unknown awards as written', () => {
    expect(englishTemplateVars({ deadlineHint: '请在 2026-12-08 18:00（北京时间）前' }).deadlineHint).toBe('before 2026-12-08 18:00 (Beijing time)');
    expect(englishTemplateVars({ deadlineHint: '请尽快' }).deadlineHint).toBe('as soon as possible');
    // A team named like a status is a name, not a status.
    expect(englishTemplateVars({ teamName: '审核通过', reason: '初赛', result: '创新奖', projectName: 'P' })).toEqual({ teamName: '审核通过', reason: '初赛', result: '创新奖', projectName: 'P' });
  });
});
