/**
 * Anchors and receipts of the 评分存证 (docs/security.md "Score log: anchors and
 * receipts"). Pure functions, no I/O and no crypto library: the caller passes SHA-256 (node:crypto
 * on the server and in tests, any implementation elsewhere), so the web app or an outside party can
 * check a receipt with the same code.
 *
 * The Merkle tree is RFC 9162's (Certificate Transparency v2, section 2.1): over the entry hashes
 * of seq 1..N in order, leaf = SHA-256(0x00 || entry hash bytes), node = SHA-256(0x01 || left ||
 * right), the left subtree holding the largest power of two below the size. An inclusion path
 * lists the sibling hashes from the leaf up.
 */

/** SHA-256 of bytes, as bytes (32). */
export type Sha256 = (data: Uint8Array) => Uint8Array;

export const MERKLE_ALGORITHM = 'RFC9162-SHA256' as const;
export const SCORE_RECEIPT_FORMAT = 'contest-score-receipt' as const;

const HEX = /^[0-9a-f]*$/;

export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !HEX.test(hex)) throw new Error('score receipt: not lowercase hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function concat(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  out[0] = prefix;
  let at = 1;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Hex SHA-256 of a text's UTF-8 bytes (an entry's hash from its canonical text). */
export const sha256TextHex = (sha256: Sha256, text: string): string => bytesToHex(sha256(utf8(text)));

/** The leaf of an entry: SHA-256(0x00 || its 32 hash bytes), hex. */
export const merkleLeaf = (sha256: Sha256, entryHashHex: string): string => bytesToHex(sha256(concat(0x00, hexToBytes(entryHashHex))));

/** An inner node: SHA-256(0x01 || left || right), hex. */
export const merkleNode = (sha256: Sha256, leftHex: string, rightHex: string): string => bytesToHex(sha256(concat(0x01, hexToBytes(leftHex), hexToBytes(rightHex))));

/**
 * The tree's levels bottom-up (level 0 = the leaves). Pairing left to right and carrying a lone
 * last node up unchanged builds exactly RFC 9162's tree, in one pass.
 */
export function merkleLevels(sha256: Sha256, entryHashes: readonly string[]): string[][] {
  const levels: string[][] = [entryHashes.map((h) => merkleLeaf(sha256, h))];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const up: string[] = [];
    for (let i = 0; i < below.length; i += 2) up.push(i + 1 < below.length ? merkleNode(sha256, below[i]!, below[i + 1]!) : below[i]!);
    levels.push(up);
  }
  return levels;
}

/** The root of the levels (SHA-256 of nothing for an empty tree, as RFC 9162 says). */
export const merkleRootOf = (sha256: Sha256, levels: readonly (readonly string[])[]): string =>
  levels[0]!.length === 0 ? bytesToHex(sha256(new Uint8Array(0))) : levels[levels.length - 1]![0]!;

/** Root over entry hashes (seq order). */
export const merkleRoot = (sha256: Sha256, entryHashes: readonly string[]): string => merkleRootOf(sha256, merkleLevels(sha256, entryHashes));

/** Inclusion path of leaf `index` (0-based: seq - 1): the siblings from the leaf up. */
export function merklePath(levels: readonly (readonly string[])[], index: number): string[] {
  if (!Number.isInteger(index) || index < 0 || index >= levels[0]!.length) throw new Error('score receipt: leaf index out of range');
  const path: string[] = [];
  let i = index;
  for (let l = 0; l < levels.length - 1; l++) {
    const level = levels[l]!;
    const sibling = i ^ 1;
    if (sibling < level.length) path.push(level[sibling]!);
    i >>= 1;
  }
  return path;
}

/** RFC 9162 2.1.3.2: whether `path` leads from the leaf at `index` of a tree of `size` leaves to `root`. */
export function verifyMerklePath(sha256: Sha256, leafHex: string, index: number, size: number, path: readonly string[], rootHex: string): boolean {
  if (!Number.isInteger(index) || !Number.isInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHex;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = merkleNode(sha256, p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = merkleNode(sha256, r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r === rootHex;
}

// ------------------------------------------------------------------ anchors and receipts

/** A published head (`score_log_anchors`): what a 公示 notice prints. */
export interface ScoreLogAnchorView {
  id: string;
  round: 'PRELIMINARY' | 'FINAL';
  /** The result version it was published with, and its number. */
  resultVersionId: string;
  version: number;
  /** Chain head at publication: the last entry's seq and hash (seq 0 = empty log, genesis hash). */
  seq: number;
  headHash: string;
  /** RFC 9162 root over the hashes of entries 1..seq. */
  merkleRoot: string;
  newsId: string | null;
  publishedAt: string;
}

/** One of the team's entries in a receipt. */
export interface ScoreReceiptEntry {
  seq: number;
  /** The entry's hash (hex SHA-256 of `canonical`). */
  hash: string;
  /**
   * The exact text hashed (canonical JSON); null for a version-1 entry that names a person
   * (actorName was hashed then): only its inclusion can be checked.
   */
  canonical: string | null;
  /** Inclusion path of leaf seq - 1 under the anchor's root. */
  path: string[];
}

/** What a team downloads (docs/security.md, "Checking a receipt by hand"). */
export interface ScoreReceipt {
  format: typeof SCORE_RECEIPT_FORMAT;
  formatVersion: 1;
  algorithm: typeof MERKLE_ALGORITHM;
  publication: { anchorId: string; round: 'PRELIMINARY' | 'FINAL'; resultVersionId: string; version: number; publishedAt: string; newsId: string | null };
  /** The chain head printed in the notice; `path` proves it is the tree's last leaf. */
  head: { seq: number; hash: string; path: string[] };
  /** Tree size (= head.seq) and root, as printed in the notice. */
  merkle: { size: number; root: string };
  project: { id: string; name: string };
  entries: ScoreReceiptEntry[];
  generatedAt: string;
}

export const SCORE_RECEIPT_PROBLEMS = ['FORMAT', 'HEAD_NOT_IN_TREE', 'ENTRY_HASH', 'ENTRY_SEQ', 'ENTRY_NOT_IN_TREE', 'ROOT_DIFFERS'] as const;
export type ScoreReceiptProblem = (typeof SCORE_RECEIPT_PROBLEMS)[number];

export interface ScoreReceiptCheck {
  ok: boolean;
  /** Entries whose content and inclusion were both checked, and those checked for inclusion only. */
  checked: number;
  inclusionOnly: number;
  problems: { seq: number | null; problem: ScoreReceiptProblem }[];
}

/**
 * Checks a receipt on its own: each entry's text hashes to its hash and carries its seq, each
 * hash is leaf seq-1 of the tree, the head is its last leaf; and, when given, that the root is
 * the one published (`publishedRoot`, read off the notice).
 */
export function checkScoreReceipt(sha256: Sha256, receipt: ScoreReceipt, publishedRoot?: string): ScoreReceiptCheck {
  const problems: ScoreReceiptCheck['problems'] = [];
  let checked = 0;
  let inclusionOnly = 0;
  try {
    const { size, root } = receipt.merkle;
    if (receipt.format !== SCORE_RECEIPT_FORMAT || receipt.algorithm !== MERKLE_ALGORITHM || size !== receipt.head.seq) problems.push({ seq: null, problem: 'FORMAT' });
    if (publishedRoot !== undefined && publishedRoot !== root) problems.push({ seq: null, problem: 'ROOT_DIFFERS' });
    if (size > 0 && !verifyMerklePath(sha256, merkleLeaf(sha256, receipt.head.hash), size - 1, size, receipt.head.path, root)) {
      problems.push({ seq: receipt.head.seq, problem: 'HEAD_NOT_IN_TREE' });
    }
    for (const e of receipt.entries) {
      if (e.canonical !== null) {
        if (sha256TextHex(sha256, e.canonical) !== e.hash) {
          problems.push({ seq: e.seq, problem: 'ENTRY_HASH' });
          continue;
        }
        if ((JSON.parse(e.canonical) as { seq?: unknown }).seq !== e.seq) {
          problems.push({ seq: e.seq, problem: 'ENTRY_SEQ' });
          continue;
        }
      }
      if (!verifyMerklePath(sha256, merkleLeaf(sha256, e.hash), e.seq - 1, size, e.path, root)) {
        problems.push({ seq: e.seq, problem: 'ENTRY_NOT_IN_TREE' });
        continue;
      }
      if (e.canonical === null) inclusionOnly++;
      else checked++;
    }
  } catch {
    problems.push({ seq: null, problem: 'FORMAT' });
  }
  return { ok: problems.length === 0, checked, inclusionOnly, problems };
}
