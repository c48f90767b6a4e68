import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { LiveChairState, LiveGoneEvent } from '@contest/shared';
import { useLiveStream } from '../../../lib/live-stream';
import { LIVE_QUERY_KEYS, fetchChair } from './live-api';

export interface ChairFeed {
  state: LiveChairState | null;
  loading: boolean;
  /** The first GET failed (not found, no permission). */
  error: unknown;
  /** The stream is open (live updates); false while it reconnects (the GET fills in). */
  connected: boolean;
  gone: LiveGoneEvent | null;
  /** Reads the state again (after a STALE refusal). */
  refresh(): void;
  /** An action's answer carries the new state: shown at once. */
  replace(state: LiveChairState): void;
}

/**
 * The chair's live state (docs/live-final.md, "Event stream"): the GET for the first paint and
 * after a refusal, and the chair's stream (lib/live-stream: fetch with the Authorization header,
 * reconnect with backoff, a full `state` per event, `gone` ends it). Whichever arrived last wins:
 * every snapshot is complete.
 */
export function useChairFeed(id: string, enabled: boolean): ChairFeed {
  const query = useQuery({ queryKey: LIVE_QUERY_KEYS.chair(id), queryFn: () => fetchChair(id), enabled });
  const stream = useLiveStream<LiveChairState>(enabled ? `/admin/live/sessions/${id}/events` : null, {
    realm: 'ADMIN',
    fetchState: () => fetchChair(id, true),
  });
  const [latest, setLatest] = useState<LiveChairState | null>(null);
  const { refetch } = query;
  const setStreamState = stream.setState;

  useEffect(() => {
    if (query.data) setLatest(query.data);
  }, [query.data]);
  useEffect(() => {
    if (stream.state) setLatest(stream.state);
  }, [stream.state]);

  const replace = useCallback(
    (state: LiveChairState) => {
      setLatest(state);
      setStreamState(state);
    },
    [setStreamState],
  );
  const refresh = useCallback(() => {
    void refetch().then((r) => {
      if (r.data) replace(r.data);
    });
  }, [refetch, replace]);

  return {
    state: latest,
    loading: !latest && query.isLoading,
    error: latest ? null : query.error,
    connected: stream.connected,
    gone: stream.gone,
    refresh,
    replace,
  };
}
