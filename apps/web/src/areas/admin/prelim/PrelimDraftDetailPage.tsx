import { DraftDetailPage } from '../components/audited-submission';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_AUDIT } from './prelim-audit';
import './prelim.css';

/** 初赛草稿详情 (/admin/preliminary/draft-detail/:id): the draft as saved, read-only, with a reminder. */
export function PrelimDraftDetailPage() {
  return <DraftDetailPage workflow={PRELIM_AUDIT} view={(doc, extra) => <PrelimDetailView doc={doc} extra={extra} />} />;
}
