import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  scoreLogCanonical,
  bytesToHex,
  checkScoreReceipt,
  hexToBytes,
  merkleLeaf,
  merkleLevels,
  merkleNode,
  merklePath,
  merkleRoot,
  sha256TextHex,
  verifyMerklePath,
  type ScoreReceipt,
} from '@contest/shared';

/**
 * The pure receipt rules of packages/shared (score-receipt.ts) with Node's SHA-256, as the server
 * and an outside checker use them; tested here because the shared package carries no Node types.
 */
const bytes = (prefix: number[], ...hex: string[]) => Buffer.concat([Buffer.from(prefix), ...hex.map((h) => Buffer.from(h, 'hex'))]);

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const hashes = (n: number) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`entry ${i + 1}`).digest('hex'));

/** RFC 9162's recursive definition, written out as the RFC has it: the reference the fast one must match. */
function mth(leaves: string[]): string {
  if (leaves.length === 0) return bytesToHex(sha256(new Uint8Array(0)));
  if (leaves.length === 1) return merkleLeaf(sha256, leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return merkleNode(sha256, mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

describe('Merkle tree (RFC 9162)', () => {
  it('hex round trip', () => {
    expect(bytesToHex(hexToBytes('00ff10ab'))).toBe('00ff10ab');
    expect(() => hexToBytes('0g')).toThrow();
  });

  it('leaf and node carry the domain-separation prefixes 0x00 / 0x01', () => {
    const h = hashes(1)[0]!;
    expect(merkleLeaf(sha256, h)).toBe(createHash('sha256').update(bytes([0], h)).digest('hex'));
    expect(merkleNode(sha256, h, h)).toBe(createHash('sha256').update(bytes([1], h, h)).digest('hex'));
  });

  it('the one-pass root equals the recursive definition for every size up to 70', () => {
    for (let n = 0; n <= 70; n++) expect(merkleRoot(sha256, hashes(n)), `size ${n}`).toBe(mth(hashes(n)));
  });

  it('every inclusion path verifies, and fails at another index, leaf, root or with an extra step', () => {
    for (const n of [1, 2, 3, 5, 7, 8, 13, 33]) {
      const h = hashes(n);
      const levels = merkleLevels(sha256, h);
      const root = merkleRoot(sha256, h);
      for (let i = 0; i < n; i++) {
        const leaf = merkleLeaf(sha256, h[i]!);
        const path = merklePath(levels, i);
        expect(verifyMerklePath(sha256, leaf, i, n, path, root), `${i} of ${n}`).toBe(true);
        if (n > 1) {
          expect(verifyMerklePath(sha256, leaf, (i + 1) % n, n, path, root)).toBe(false);
          expect(verifyMerklePath(sha256, merkleLeaf(sha256, h[(i + 1) % n]!), i, n, path, root)).toBe(false);
        }
        // (The size alone is not bound by a path: the same siblings can fit a tree one larger; the root binds it.)
        expect(verifyMerklePath(sha256, leaf, i, n, [...path, root], root)).toBe(false);
        expect(verifyMerklePath(sha256, leaf, i, n, path, mth(hashes(n + 1)))).toBe(false);
      }
    }
  });
});

describe('checkScoreReceipt', () => {
  /** A log of 9 v2 entries; the team owns seq 2 and 7; the publication anchored at seq 8. */
  function build() {
    const entries: { seq: number; canonical: string; hash: string }[] = [];
    let prev = '0'.repeat(64);
    for (let seq = 1; seq <= 9; seq++) {
      const canonical = scoreLogCanonical({
        v: 2,
        seq,
        kind: 'SCORE_SUBMITTED',
        round: 'PRELIMINARY',
        subjectType: 'prelim_doc',
        subjectId: seq % 5 === 2 ? 'p-team' : 'p-other',
        actorId: null,
        actorName: 'not hashed',
        payload: { total: 70 + seq },
        at: '2025-09-01T08:00:00.000Z',
        prevHash: prev,
      });
      const hash = sha256TextHex(sha256, canonical);
      entries.push({ seq, canonical, hash });
      prev = hash;
    }
    const size = 8;
    const levels = merkleLevels(sha256, entries.slice(0, size).map((e) => e.hash));
    const root = merkleRoot(sha256, entries.slice(0, size).map((e) => e.hash));
    const receipt: ScoreReceipt = {
      format: 'contest-score-receipt',
      formatVersion: 1,
      algorithm: 'RFC9162-SHA256',
      publication: { anchorId: 'a', round: 'PRELIMINARY', resultVersionId: 'v', version: 1, publishedAt: '2025-09-02T00:00:00.000Z', newsId: null },
      head: { seq: size, hash: entries[size - 1]!.hash, path: merklePath(levels, size - 1) },
      merkle: { size, root },
      project: { id: 'p-team', name: '项目' },
      entries: [2, 7].map((seq) => ({ seq, hash: entries[seq - 1]!.hash, canonical: entries[seq - 1]!.canonical, path: merklePath(levels, seq - 1) })),
      generatedAt: '2025-09-03T00:00:00.000Z',
    };
    return { receipt, root };
  }

  it('a receipt built from the log checks out against the published root', () => {
    const { receipt, root } = build();
    expect(checkScoreReceipt(sha256, receipt, root)).toEqual({ ok: true, checked: 2, inclusionOnly: 0, problems: [] });
  });

  it('v2 canonical text leaves the actor name out and carries v', () => {
    const { receipt } = build();
    const e = JSON.parse(receipt.entries[0]!.canonical!) as Record<string, unknown>;
    expect(e.v).toBe(2);
    expect('actorName' in e).toBe(false);
    expect(receipt.entries[0]!.canonical).toBe(canonicalJson(e));
  });

  it('an edited entry, a recomputed hash, another root or a moved seq fail', () => {
    const edited = build().receipt;
    edited.entries[0]!.canonical = edited.entries[0]!.canonical!.replace('"total":72', '"total":100');
    expect(checkScoreReceipt(sha256, edited).problems).toEqual([{ seq: 2, problem: 'ENTRY_HASH' }]);

    // Whoever edits the log recomputes the hash too: the leaf then is not in the published tree.
    const recomputed = build().receipt;
    recomputed.entries[0]!.canonical = recomputed.entries[0]!.canonical!.replace('"total":72', '"total":100');
    recomputed.entries[0]!.hash = sha256TextHex(sha256, recomputed.entries[0]!.canonical!);
    expect(checkScoreReceipt(sha256, recomputed).problems).toEqual([{ seq: 2, problem: 'ENTRY_NOT_IN_TREE' }]);

    const { receipt } = build();
    expect(checkScoreReceipt(sha256, receipt, '0'.repeat(64)).problems).toEqual([{ seq: null, problem: 'ROOT_DIFFERS' }]);

    const moved = build().receipt;
    moved.entries[1]!.seq = 6;
    expect(checkScoreReceipt(sha256, moved).problems).toEqual([{ seq: 6, problem: 'ENTRY_SEQ' }]);

    const head = build().receipt;
    head.head.hash = receipt.entries[0]!.hash;
    expect(checkScoreReceipt(sha256, head).problems).toEqual([{ seq: 8, problem: 'HEAD_NOT_IN_TREE' }]);
  });

  it('a withheld v1 text is checked for inclusion only; garbage is a FORMAT problem', () => {
    const { receipt, root } = build();
    receipt.entries[0]!.canonical = null;
    expect(checkScoreReceipt(sha256, receipt, root)).toEqual({ ok: true, checked: 1, inclusionOnly: 1, problems: [] });
    expect(checkScoreReceipt(sha256, { ...receipt, merkle: null } as unknown as ScoreReceipt).problems).toEqual([{ seq: null, problem: 'FORMAT' }]);
  });
});
