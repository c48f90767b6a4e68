import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { REVIEW_MSG } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accountsView } from '../auth/auth.read-model.js';
import { forbidden } from '../../lib/errors.js';
import { bearerToken, tagRealmGuard } from '../auth/auth.guard.js';
import type { SessionService } from '../auth/session.service.js';

/**
 * Guards of the expert area's calls (/api/expert/...): `signedIn` admits an expert session
 * (401/409 otherwise); `agreed` also demands the review agreement (docs/rules/review.md, "Review agreement"): 403 with
 * REVIEW_MSG.agreementRequired and data.reason AGREEMENT_REQUIRED until it is accepted.
 * Read per request, so accepting takes effect at once.
 */
export function createExpertGuards(sessions: SessionService, db: Db) {
  const signedIn = tagRealmGuard(async (request: FastifyRequest) => {
    request.auth = await sessions.authenticate(bearerToken(request), ['EXPERT']);
  }, { kind: 'realm', realms: ['EXPERT'] });
  const agreed = tagRealmGuard(async (request: FastifyRequest) => {
    await signedIn(request);
    const [row] = await db.select({ agreedAt: accountsView.agreedAt }).from(accountsView).where(eq(accountsView.id, request.auth!.accountId)).limit(1);
    if (!row?.agreedAt) throw forbidden(REVIEW_MSG.agreementRequired, { reason: 'AGREEMENT_REQUIRED' });
  }, { kind: 'realm', realms: ['EXPERT'], agreement: true });
  return { signedIn, agreed };
}
export type ExpertGuards = ReturnType<typeof createExpertGuards>;
