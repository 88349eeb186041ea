// A command that printed a config file beside other output (`cat config.yaml AGENTS.md`): the
// settings it printed are said as the output's, with their values, beside the rules it printed.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

describe('a config file printed with other output', () => {
  it('says the settings the output printed, with their values', () => {
    const b = new LogBuilder();
    b.user('mets en place les alertes Telegram du bus');
    b.tool('terminal', { command: 'ls && cat config.yaml AGENTS.md' }, 'AGENTS.md\nconfig.yaml\napi:\n  key_env: TRANSIT_API_KEY\ntelegram:\n  chat_id: 48213377\n# AGENTS.md\n- Secrets only via environment variables; never write tokens to files.');
    const found = extractSections(b.log.surface()).find((s) => s.heading === 'Findings')!.items.map((i) => i.text).join('\n');
    expect(found).toMatch(/the settings it printed: key_env = TRANSIT_API_KEY, chat_id = 48213377/);
    expect(found).toMatch(/the rules it printed say: "Secrets only via environment variables/);
  });
});
