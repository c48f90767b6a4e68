import { AuditedDetailPage } from '../components/audited-submission';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_WORKFLOW } from './prelim-workflow';
import './preliminary.css';

/** 初赛详情 (/admin/preliminary/detail/:id): every field, files, counted characters, history, final-round state. */
export function PrelimDetailPage() {
  return <AuditedDetailPage workflow={PRELIM_WORKFLOW} view={(doc, extra) => <PrelimDetailView doc={doc} extra={extra} />} />;
}
