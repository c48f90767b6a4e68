import { useTranslation } from 'react-i18next';
import { criterionText, type Criterion } from '@contest/shared';
import { i18n } from '../i18n';

/**
 * A rubric criterion's name and description in the page's language: English pages get the
 * English given in 评分细则, the Chinese when there is none (expert score sheets and the admin
 * score queries alike).
 */
export function useCriterionText(): (c: Pick<Criterion, 'name' | 'description' | 'nameEn' | 'descriptionEn'>) => { name: string; description: string } {
  const { i18n } = useTranslation();
  const english = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  return (c) => criterionText(c, english);
}

/** The same outside a hook (column titles built in helpers): the page's language as it is now. */
export function criterionName(c: Pick<Criterion, 'name' | 'description' | 'nameEn' | 'descriptionEn'>): string {
  return criterionText(c, (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en')).name;
}
