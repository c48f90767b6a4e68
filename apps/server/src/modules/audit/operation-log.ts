import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { operationRecords } from '../../db/schema/audit.js';
import type { AuthContext } from '../auth/session.service.js';

export interface OperationActor {
  auth: Pick<AuthContext, 'accountId' | 'realm' | 'username'>;
  ip?: string;
  userAgent?: string;
}

export interface OperationEntry {
  /** Permission-style code, e.g. `account:disable`. */
  action: string;
  targetType: string;
  targetId?: string | null;
  /** What changed, for a person reading the audit log. Never passwords or tokens. */
  summary: string;
  result?: 'SUCCESS' | 'FAILURE';
}

/** Who did it, from a request that passed an auth guard. */
export function actorOf(request: FastifyRequest): OperationActor {
  if (!request.auth) throw new Error('actorOf needs an authenticated request');
  return { auth: request.auth, ip: request.ip, userAgent: request.headers['user-agent'] };
}

/**
 * Writes one operation record. Call it with the transaction that makes the change, so the
 * record exists exactly when the change does.
 */
export async function recordOperation(tx: Db, actor: OperationActor, entry: OperationEntry): Promise<void> {
  await tx.insert(operationRecords).values({
    realm: actor.auth.realm,
    accountId: actor.auth.accountId,
    username: actor.auth.username,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    summary: entry.summary.slice(0, 2000),
    result: entry.result ?? 'SUCCESS',
    ip: actor.ip?.slice(0, 64),
    userAgent: actor.userAgent?.slice(0, 512),
  });
}
