import { z } from 'zod';
import type { ReviewRound } from '../admin/settings.js';
import { REVIEW_MSG as M } from './messages.js';

/** One criterion of a round's rubric: points 0..max in 0.5 steps. */
export interface Criterion {
  /** Stable key the score sheets use (c1, c2, ... or a slug); never shown. */
  key: string;
  name: string;
  description: string;
  max: number;
  /** English name and description for English pages (the Chinese ones show when empty). */
  nameEn?: string;
  descriptionEn?: string;
}

/** The name and description a reader of `language` gets: English on English pages when given. */
export function criterionText(c: Pick<Criterion, 'name' | 'description' | 'nameEn' | 'descriptionEn'>, english: boolean): { name: string; description: string } {
  return english ? { name: c.nameEn || c.name, description: c.descriptionEn || c.description } : { name: c.name, description: c.description };
}

export interface Rubric {
  round: ReviewRound;
  criteria: Criterion[];
}

/** The default criteria in English. */
const EN = {
  innovation: { nameEn: 'Innovation', descriptionEn: 'How new the idea, method or technology is, and how it improves on existing solutions' },
  feasibility: { nameEn: 'Feasibility', descriptionEn: 'Whether the technical route, data sources and implementation plan are clear and workable' },
  value: { nameEn: 'Practical value', descriptionEn: 'Real value for insurance management, fund supervision or public services, and prospects for wider use' },
  completeness: { nameEn: 'Completeness', descriptionEn: 'Whether the materials are complete and well formed, and the case is argued in full' },
  defense: { nameEn: 'On-site defence', descriptionEn: 'A clear presentation, accurate answers and a good grasp of the judges\' questions' },
} satisfies Record<string, Pick<Criterion, 'nameEn' | 'descriptionEn'>>;

/** docs/rules/review.md, "Rubric": 创新性 25, 可行性 25, 应用价值 30, 完整性 20; the final adds 现场答辩. */
export const DEFAULT_RUBRICS: Record<ReviewRound, Criterion[]> = {
  PRELIMINARY: [
    { key: 'innovation', name: '创新性', description: '思路、方法或技术的新颖程度，与已有方案相比的改进', max: 25, ...EN.innovation },
    { key: 'feasibility', name: '可行性', description: '技术路线、数据来源与实施计划是否清晰可行', max: 25, ...EN.feasibility },
    { key: 'value', name: '应用价值', description: '对医保管理、基金监管或群众服务的实际价值与推广前景', max: 30, ...EN.value },
    { key: 'completeness', name: '完整性', description: '材料是否齐全、规范，论证是否充分', max: 20, ...EN.completeness },
  ],
  FINAL: [
    { key: 'innovation', name: '创新性', description: '思路、方法或技术的新颖程度，与已有方案相比的改进', max: 20, ...EN.innovation },
    { key: 'feasibility', name: '可行性', description: '技术路线、数据来源与实施计划是否清晰可行', max: 20, ...EN.feasibility },
    { key: 'value', name: '应用价值', description: '对医保管理、基金监管或群众服务的实际价值与推广前景', max: 25, ...EN.value },
    { key: 'completeness', name: '完整性', description: '材料是否齐全、规范，论证是否充分', max: 15, ...EN.completeness },
    { key: 'defense', name: '现场答辩', description: '陈述清晰、回答准确，对评委提问的把握', max: 20, ...EN.defense },
  ],
};

export const RUBRIC_MAX_CRITERIA = 10;
/** The criteria of a round add up to 100, so totals compare across rounds and the divergence threshold reads in points of 100. */
export const RUBRIC_TOTAL = 100;

export const criterionSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_-]{0,29}$/, M.rubricNameRequired).optional(),
  name: z.string({ error: M.rubricNameRequired }).trim().min(1, M.rubricNameRequired).max(20, M.rubricNameTooLong),
  description: z.string().trim().max(200, M.rubricDescriptionTooLong).default(''),
  max: z.number({ error: M.rubricMaxInvalid }).int(M.rubricMaxInvalid).min(1, M.rubricMaxInvalid).max(100, M.rubricMaxInvalid),
  // Absent: the English the criterion of that name has now is kept (a client that knows no English
  // changes nothing); '' clears it.
  nameEn: z.string().trim().max(60, M.rubricNameEnTooLong).optional(),
  descriptionEn: z.string().trim().max(400, M.rubricDescriptionEnTooLong).optional(),
});

export const rubricBodySchema = z
  .object({
    criteria: z.array(criterionSchema, { error: M.rubricCriteriaRequired }).min(1, M.rubricCriteriaRequired).max(RUBRIC_MAX_CRITERIA, M.rubricCriteriaTooMany),
  })
  .superRefine((v, ctx) => {
    const names = new Set<string>();
    v.criteria.forEach((c, i) => {
      if (names.has(c.name)) ctx.addIssue({ code: 'custom', message: M.rubricNameDuplicate, path: ['criteria', i, 'name'] });
      names.add(c.name);
    });
    const sum = v.criteria.reduce((s, c) => s + c.max, 0);
    if (sum !== RUBRIC_TOTAL) ctx.addIssue({ code: 'custom', message: M.rubricTotalInvalid, path: ['criteria'] });
  });
export type RubricBody = z.infer<typeof rubricBodySchema>;

/** 0..max in 0.5 steps. */
export function isValidPoints(points: unknown, max: number): points is number {
  return typeof points === 'number' && Number.isFinite(points) && points >= 0 && points <= max && Number.isInteger(points * 2);
}

/** Sum of a sheet's points over the rubric (criteria not scored count 0). */
export function totalOf(criteria: readonly Criterion[], scores: Readonly<Record<string, number>>): number {
  return criteria.reduce((sum, c) => sum + (scores[c.key] ?? 0), 0);
}
