import { ROUND_NAMES, isSelectedOutcome, type AwardRule, type ResultEntryView, type ReviewRound } from '@contest/shared';
import { escapeHtml, sanitizeHtml } from '../../lib/sanitize-html.js';
import { beijingTime } from '../../lib/xlsx-stream.js';

/**
 * The public notice of a version in 大赛动态 (docs/rules/results.md, "The public notice"): who is promoted (preliminary) or awarded
 * (final, grouped by level), by project name and organisation with the track. No scores and no
 * ranks: the ranking of the other projects is not public, and within a level the order is the
 * project name's ("排名不分先后"), so the list discloses nothing beyond the outcome. Each team
 * sees its own rank and score on its own page.
 */

/** `YYYY-MM-DD HH:mm`, Beijing time. */
export const beijingMinute = (d: Date) => beijingTime(d).slice(0, 16);

const byName = (a: ResultEntryView, b: ResultEntryView) => a.projectName.localeCompare(b.projectName, 'zh-CN') || a.orgName.localeCompare(b.orgName, 'zh-CN');

function table(rows: ResultEntryView[], trackName: (code: string | null) => string): string {
  const body = rows
    .map((e, i) => `<tr><td>${i + 1}</td><td>${escapeHtml(e.projectName)}</td><td>${escapeHtml(e.orgName)}</td><td>${escapeHtml(trackName(e.track))}</td></tr>`)
    .join('');
  return `<table><thead><tr><th>序号</th><th>项目名称</th><th>参赛单位</th><th>参赛方向</th></tr></thead><tbody>${body}</tbody></table>`;
}

export interface NoticeInput {
  /** The score log's head and Merkle root at publication (docs/security.md "Score log: anchors and receipts"). */
  head: { seq: number; headHash: string; merkleRoot: string };
  contestName: string;
  round: ReviewRound;
  version: number;
  reason: string | null;
  entries: ResultEntryView[];
  awards: AwardRule | null;
  publishedAt: Date;
  periodEndsAt: Date;
  appealEndsAt: Date;
  trackName: (code: string | null) => string;
}

export function resultNotice(input: NoticeInput): { title: string; summary: string; body: string } {
  const roundName = ROUND_NAMES[input.round];
  const what = input.round === 'PRELIMINARY' ? '晋级决赛名单' : '获奖名单';
  const suffix = input.version > 1 ? `（第 ${input.version} 版）` : '';
  const title = `${input.contestName}${roundName}${what}公示${suffix}`;
  const period = `${beijingMinute(input.publishedAt)} 至 ${beijingMinute(input.periodEndsAt)}（北京时间）`;
  const summary = `公示期：${period}`;
  const selected = input.entries.filter((e) => isSelectedOutcome(e.outcome));
  const parts: string[] = [
    `<p>${escapeHtml(input.contestName)}${roundName}评审已结束。经专家评审，现将${roundName}${what}予以公示（同一名单内按项目名称排序，排名不分先后）。</p>`,
    `<p>公示期：${period}。公示期内，参赛团队如对本轮结果有异议，可于 ${beijingMinute(input.appealEndsAt)}（北京时间）前登录大赛官网，在个人中心提交申诉（每轮限一次）。</p>`,
  ];
  if (input.version > 1) {
    parts.push(`<p>更正说明：本公示为第 ${input.version} 版，替代此前发布的版本。更正原因：${escapeHtml(input.reason ?? '')}</p>`);
  }
  if (input.round === 'PRELIMINARY') {
    parts.push(`<h3>晋级决赛项目（共 ${selected.length} 项）</h3>`, table([...selected].sort(byName), input.trackName));
  } else {
    for (const level of input.awards?.levels ?? []) {
      const rows = selected.filter((e) => e.awardCode === level.code).sort(byName);
      if (rows.length === 0) continue;
      parts.push(`<h3>${escapeHtml(level.name)}（共 ${rows.length} 项）</h3>`, table(rows, input.trackName));
    }
  }
  // The score log as it stood at publication: a later change, even with the chain recomputed, no
  // longer matches these values, and each team's receipt checks against the root.
  parts.push(
    `<h3>存证链头</h3><p>本次公示时存证链的链头：序号 ${input.head.seq}，哈希 <code>${input.head.headHash}</code>；` +
      `默克尔根（RFC 9162，SHA-256，覆盖第 1 至 ${input.head.seq} 条记录）：<code>${input.head.merkleRoot}</code>。` +
      `参赛团队可在个人中心下载本队的存证回执，按大赛官网公布的方法核对。</p>`,
  );
  parts.push(`<p>${escapeHtml(input.contestName)}组委会<br>${beijingTime(input.publishedAt).slice(0, 10)}</p>`);
  // Built from escaped text only; sanitised anyway, as every stored article body is.
  return { title, summary, body: sanitizeHtml(parts.join('')) };
}
