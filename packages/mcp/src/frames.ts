import type { Frame } from '@hive-mind/mind';
import { neutralize } from '@hive-mind/mind/neutralize';
import { clip } from './limits.js';

/** The fields of a frame a model needs, with the content cut to `maxContent` characters. */
export interface FrameView {
  id: number;
  content: string;
  /** Present (true) only when `content` was cut (before its markup was escaped); the full text is in `get_memory {id}`. */
  truncated?: true;
  /** Full length of the content in characters, when truncated. */
  contentChars?: number;
  kind: string;
  importance: string;
  scope: string;
  source: string;
  host?: string;
  createdAt: string;
  updatedAt?: string;
  expiresAt?: string | null;
  supersedes?: number | null;
  supersededBy?: number | null;
  quarantined?: true;
  threats?: string[];
  tags?: string[];
  score?: number;
  /** For a long save split into linked parts: this part's index, the number of parts, and part 0's id. */
  part?: number;
  parts?: number;
  partOf?: number | null;
}

/** Project a stored frame to what a tool result shows; the content's markup is escaped (`neutralize`). */
export function frameView(frame: Frame & { score?: number }, maxContent: number): FrameView {
  const c = clip(frame.content, maxContent);
  const v: FrameView = {
    id: frame.id,
    content: neutralize(c.text),
    kind: frame.kind,
    importance: frame.importance,
    scope: frame.scope,
    source: frame.source,
    createdAt: frame.createdAt,
  };
  if (c.truncated) {
    v.truncated = true;
    v.contentChars = c.totalChars;
  }
  if (frame.host) v.host = frame.host;
  if (frame.updatedAt && frame.updatedAt !== frame.createdAt) v.updatedAt = frame.updatedAt;
  if (frame.expiresAt) v.expiresAt = frame.expiresAt;
  if (frame.supersedes) v.supersedes = frame.supersedes;
  if (frame.supersededBy) v.supersededBy = frame.supersededBy;
  if (frame.quarantined) {
    v.quarantined = true;
    v.threats = frame.threats;
  }
  if (frame.tags && frame.tags.length) v.tags = frame.tags;
  if (frame.parts > 1) {
    v.part = frame.part;
    v.parts = frame.parts;
    v.partOf = frame.partOf;
  }
  if (typeof frame.score === 'number') v.score = Math.round(frame.score * 1000) / 1000;
  return v;
}
