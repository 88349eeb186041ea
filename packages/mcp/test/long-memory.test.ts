import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Mind } from '@hive-mind/mind';
import { callJson, connectStdio, requireBuilt, tempHome, textOf, type Connected } from './helpers.js';
import { repeatingText, sha256, uniqueText } from '../../../test-support/long-text.js';

describe('get_memory pages a long memory back whole; save_memory supersedes keep the importance (real process, SDK client)', () => {
  const t = tempHome();
  let c: Connected;
  const texts = { repeating: repeatingText(1_000_034), 'non-repeating': uniqueText(1_000_000) };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    requireBuilt();
    // saved through the library into the personal mind the server opens (save_memory takes concise statements only)
    const m = Mind.open(join(t.home, 'personal.mind'));
    for (const [name, text] of Object.entries(texts)) ids[name] = m.save({ content: text, host: 'test' }).id;
    m.close();
    c = await connectStdio(t.home);
  });
  afterAll(async () => {
    await c?.close();
    t.cleanup();
  });

  it.each(Object.keys(texts))('1 MB of %s content, paged with nextOffset, is the saved text byte for byte', async (name) => {
    const text = texts[name as keyof typeof texts];
    let offset: number | undefined = 0;
    let whole = '';
    let pages = 0;
    while (offset !== undefined) {
      const r = await c.client.callTool({ name: 'get_memory', arguments: { id: ids[name], offset } });
      const p = JSON.parse(textOf(r));
      expect(p.contentChars).toBe(text.length);
      expect(p.offset).toBe(offset);
      whole += p.content;
      offset = p.nextOffset;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(whole.length).toBe(text.length);
    expect(sha256(whole)).toBe(sha256(text));
  });

  it('save_memory with supersedes and no importance keeps the superseded memory\'s importance', async () => {
    const a = await callJson(c.client, 'save_memory', { content: 'The staging database is PostgreSQL 15', importance: 'important' });
    const b = await callJson(c.client, 'save_memory', { content: 'The staging database is PostgreSQL 16', supersedes: a.id });
    expect((await callJson(c.client, 'get_memory', { id: b.id })).importance).toBe('important');
    const n = await callJson(c.client, 'save_memory', { content: 'The staging database runs on port 5433', supersedes: b.id, importance: 'normal' });
    expect((await callJson(c.client, 'get_memory', { id: n.id })).importance).toBe('normal');
    const plain = await callJson(c.client, 'save_memory', { content: 'The build cache lives in .turbo' });
    expect((await callJson(c.client, 'get_memory', { id: plain.id })).importance).toBe('normal');
  });
});
