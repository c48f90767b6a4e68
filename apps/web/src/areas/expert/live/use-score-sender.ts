import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveJudgeState } from '@contest/shared';
import { reconnectDelay } from '../../../lib/live-stream';
import { fetchJudgeState, newScoreKey, sendLiveScore } from './live-api';
import { clearStoredScore, readStoredScore, writeStoredScore, type StoredScore } from './score-store';

export type SenderStatus = 'idle' | 'sending' | 'pending';

export interface Refusal {
  status: number;
  message: string;
  reason: string | null;
}

export interface ScoreSender {
  /** What is on its way (its key set), or null. */
  outgoing: StoredScore | null;
  status: SenderStatus;
  refusal: Refusal | null;
  /** Keeps the values (key null) while the judge fills them in. */
  keep(values: { scores: Record<string, number>; comment: string }): void;
  /** Gives the values a key (once) and sends them until the server answers. */
  submit(values: { scores: Record<string, number>; comment: string }): void;
  retryNow(): void;
}

/**
 * The phone's submit of one project's score (docs/live-final.md, "Offline and resends"): the
 * key is chosen once, the values and key are stored before the first try, and the same body is
 * sent again (1 s doubling to 10 s, at once when the browser says it is back online, or when
 * the stream reconnects) until an answer comes. A `duplicate: true` answer is a success. A
 * refusal drops the key (the values stay): a new press makes a new key.
 */
export function useScoreSender(
  sessionId: string,
  projectId: string,
  handlers: { onDone(state: LiveJudgeState, duplicate: boolean): void; onRefused(refusal: Refusal): void },
  online: boolean,
  /**
   * The server already shows this judge's score as submitted. The sheet is remounted when that
   * news arrives, which can be before the POST's own answer: a stored key is then one the server
   * has, and sending it again on mount would only be answered `duplicate`.
   */
  submittedOnServer = false,
): ScoreSender {
  const [outgoing, setOutgoing] = useState<StoredScore | null>(() => {
    const stored = readStoredScore(sessionId, projectId);
    if (stored?.key && submittedOnServer) {
      clearStoredScore(sessionId, projectId);
      return null;
    }
    return stored?.key ? stored : null;
  });
  const [status, setStatus] = useState<SenderStatus>(() => (outgoing ? 'sending' : 'idle'));
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  const inFlight = useRef(false);
  const attempt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);

  const send = useCallback(async () => {
    const body = readStoredScore(sessionId, projectId);
    if (!body?.key || inFlight.current) return;
    inFlight.current = true;
    clearTimeout(timer.current);
    setStatus('sending');
    const outcome = await sendLiveScore(sessionId, projectId, { scores: body.scores, comment: body.comment, key: body.key });
    inFlight.current = false;
    if (!alive.current) return;
    if (outcome.kind === 'ok') {
      attempt.current = 0;
      clearStoredScore(sessionId, projectId);
      setOutgoing(null);
      setStatus('idle');
      handlersRef.current.onDone(outcome.result.state, outcome.result.duplicate);
    } else if (outcome.kind === 'offline') {
      setStatus('pending');
      timer.current = setTimeout(() => void send(), reconnectDelay(attempt.current++ + 1));
    } else {
      attempt.current = 0;
      writeStoredScore(sessionId, projectId, { ...body, key: null });
      setOutgoing(null);
      setStatus('idle');
      const r: Refusal = { status: outcome.status, message: outcome.message, reason: outcome.reason };
      setRefusal(r);
      // A session refusal (signed out, signed in elsewhere): the app's client handles it on a GET.
      if (outcome.status === 401 || outcome.status === 409) fetchJudgeState(sessionId).catch(() => {});
      handlersRef.current.onRefused(r);
    }
  }, [sessionId, projectId]);

  // Resume after a reload; stop timers when the project goes away.
  useEffect(() => {
    alive.current = true;
    if (readStoredScore(sessionId, projectId)?.key) void send();
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [sessionId, projectId, send]);

  // Back online (the browser says so, or the stream is up again): try at once.
  useEffect(() => {
    const now = () => {
      if (readStoredScore(sessionId, projectId)?.key) void send();
    };
    window.addEventListener('online', now);
    return () => window.removeEventListener('online', now);
  }, [sessionId, projectId, send]);
  const wasOnline = useRef(online);
  useEffect(() => {
    // Only the step from down to up: a POST failing while the stream is up keeps its backoff.
    if (online && !wasOnline.current && readStoredScore(sessionId, projectId)?.key) void send();
    wasOnline.current = online;
  }, [online, sessionId, projectId, send]);

  const keep = useCallback(
    (values: { scores: Record<string, number>; comment: string }) => writeStoredScore(sessionId, projectId, { ...values, key: null }),
    [sessionId, projectId],
  );

  const submit = useCallback(
    (values: { scores: Record<string, number>; comment: string }) => {
      const stored = readStoredScore(sessionId, projectId);
      // One key per score: a second press while it is on its way keeps the first.
      const value: StoredScore = { ...values, key: stored?.key ?? newScoreKey() };
      writeStoredScore(sessionId, projectId, value);
      setOutgoing(value);
      setRefusal(null);
      attempt.current = 0;
      void send();
    },
    [sessionId, projectId, send],
  );

  const retryNow = useCallback(() => {
    attempt.current = 0;
    void send();
  }, [send]);

  return { outgoing, status, refusal, keep, submit, retryNow };
}
