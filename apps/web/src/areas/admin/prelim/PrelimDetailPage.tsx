import { AuditedDetailPage } from '../components/audited-submission';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_AUDIT } from './prelim-audit';
import './prelim.css';

/** 初赛详情 (/admin/preliminary/detail/:id): every field, files, counted characters, history, final-round state. */
export function PrelimDetailPage() {
  return <AuditedDetailPage workflow={PRELIM_AUDIT} view={(doc, extra) => <PrelimDetailView doc={doc} extra={extra} />} />;
}
