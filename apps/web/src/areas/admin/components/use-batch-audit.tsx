import { useState } from 'react';
import { Button } from 'antd';
import type { AuditOutcome, BatchAuditInput, BatchResult } from '@contest/shared';
import { AuditDialog, BatchResultDialog, type AuditDecision } from '../../../components/admin-kit';

const OUTCOMES = ['APPROVED', 'REVISING', 'REJECTED'] as const;

interface Versioned {
  id: string;
  version: number;
}

export interface BatchAuditOptions<R extends Versioned> {
  send(body: BatchAuditInput): Promise<BatchResult>;
  /** After the server answered (the rows changed). */
  refresh(): void;
  /** The batch bar's button of each outcome (批量通过...). */
  outcomeLabel(outcome: AuditOutcome): string;
  /** Heading of the result dialog's name column. */
  nameLabel: string;
  /** A row's name in the result dialog, for answers that carry none. */
  nameOf?(row: R): string;
}

/**
 * A list's batch decision: one button per outcome for the batch bar, the decision dialog (the
 * outcome preset, the versions the operator saw sent), then each row's result.
 */
export function useBatchAudit<R extends Versioned>({ send, refresh, outcomeLabel, nameLabel, nameOf }: BatchAuditOptions<R>) {
  const [batch, setBatch] = useState<{ rows: R[]; outcome: AuditOutcome; clear(): void } | null>(null);
  const [batchResult, setBatchResult] = useState<{ result: BatchResult; names?: Record<string, string> } | null>(null);

  const submit = async (decision: AuditDecision) => {
    if (!batch) return;
    const result = await send({
      items: batch.rows.map((row) => ({ id: row.id, version: row.version })),
      outcome: decision.outcome,
      reason: decision.reason,
    });
    batch.clear();
    setBatchResult({ result, names: nameOf && Object.fromEntries(batch.rows.map((row) => [row.id, nameOf(row)])) });
    refresh();
  };

  /** For SearchTable's `batchActions`. */
  const actions = (rows: R[], clear: () => void) =>
    OUTCOMES.map((outcome) => (
      <Button
        key={outcome}
        size="small"
        danger={outcome === 'REJECTED'}
        disabled={rows.length === 0}
        onClick={() => setBatch({ rows, outcome, clear })}
        data-testid={`batch-${outcome}`}
      >
        {outcomeLabel(outcome)}
      </Button>
    ));

  const dialogs = (
    <>
      <AuditDialog
        open={batch !== null}
        batch
        count={batch?.rows.length ?? 0}
        initialOutcome={batch?.outcome}
        onClose={() => setBatch(null)}
        onSubmit={submit}
      />
      <BatchResultDialog
        result={batchResult?.result ?? null}
        nameLabel={nameLabel}
        names={batchResult?.names}
        onClose={() => setBatchResult(null)}
      />
    </>
  );

  return { actions, dialogs };
}
