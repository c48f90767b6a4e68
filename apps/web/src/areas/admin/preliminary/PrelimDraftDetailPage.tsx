import { DraftDetailPage } from '../components/audited-submission';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_WORKFLOW } from './prelim-workflow';
import './preliminary.css';

/** 初赛草稿详情 (/admin/preliminary/draft-detail/:id): the draft as saved, read-only, with a reminder. */
export function PrelimDraftDetailPage() {
  return <DraftDetailPage workflow={PRELIM_WORKFLOW} view={(doc, extra) => <PrelimDetailView doc={doc} extra={extra} />} />;
}
