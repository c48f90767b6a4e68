import { Button, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ReviewRound } from '@contest/shared';
import { REVIEW_PATHS, type RoundProps } from '../review/round';
import { CalibrationSection } from './CalibrationSection';
import { CutConfidenceSection } from './CutConfidenceSection';
import { NormalisationSection } from './NormalisationSection';
import '../admin-pages.css';
import '../review/review.css';
import './judging-quality.css';

/**
 * 评审质量 (product section 14; docs/rules/judging-quality.md): calibration of the experts, the
 * normalisation effect on the cut and the confidence on the cut, for one round. Opened from the
 * round's score query; nothing here changes a score.
 */
export function JudgingQualityPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const navigate = useNavigate();
  return (
    <section className="admin-page review-page quality-page" data-testid="quality-page">
      <div className="quality-page__head">
        <h1 className="admin-page__title">{t(`titles.quality.${round}`)}</h1>
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(REVIEW_PATHS[round].scores)} data-testid="quality-back">
            {t(`titles.scores.${round}`)}
          </Button>
        </Space>
      </div>
      <CalibrationSection round={round} />
      <NormalisationSection round={round} />
      <CutConfidenceSection round={round} />
    </section>
  );
}

export function PrelimJudgingQualityPage() {
  return <JudgingQualityPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalJudgingQualityPage() {
  return <JudgingQualityPage round={'FINAL' satisfies ReviewRound} />;
}
