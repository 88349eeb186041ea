// A prior checkpoint's Done item about a file the span then changed again is history: what the
// file holds now is the span's to say (the prior said "alerts.ts sends e-mail"; the user rejected
// that and the span rewrote alerts.ts), while its sentences about files left alone stay.
import { describe, expect, it } from 'vitest';
import { extractSections } from '@hive-mind/compaction';
import { LogBuilder } from './helpers.js';

const items = (secs: ReturnType<typeof extractSections>, h: string) => secs.find((s) => s.heading === h)?.items.map((i) => i.text) ?? [];

describe("a prior checkpoint's Done", () => {
  for (const [lang, file, prior, request] of [
    ['es', 'src/alertas.ts', '<summary>\n## Objetivo\nDescontar las ventas del stock.\n\n## Hecho\n- src/stock.ts (aplicarVentas). src/alertas.ts tenía alertas por correo con nodemailer: el usuario lo rechazó.\n</summary>', 'quita el correo: aviso en consola y alertas.log'],
    ['en', 'src/alerts.ts', '<summary>\n## Goal\nDeduct the daily sales from the stock.\n\n## Done\n- src/stock.ts (applySales). src/alerts.ts sends e-mail alerts with nodemailer; the user just rejected that.\n</summary>', 'drop the e-mail: a console warning and a line in alerts.log'],
  ] as const) {
    it(`drops the sentences about a file the span changed again, keeps the rest (${lang})`, () => {
      const b = new LogBuilder();
      b.user(`The conversation history before this point was compacted into the following summary:\n\n${prior}`);
      b.user(request);
      b.tool('apply_patch', { path: file, old_string: 'mail', new_string: 'console' }, 'ok');
      const done = items(extractSections(b.log.surface()), 'Done').join('\n');
      expect(done).toContain('src/stock.ts');
      expect(done).not.toMatch(/nodemailer/);
    });
  }

  it('keeps the whole item when the span did not change its files', () => {
    const b = new LogBuilder();
    b.user('The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nDeduct the daily sales from the stock.\n\n## Done\n- src/alerts.ts sends a console warning for each product below its minimum.\n</summary>');
    b.user('now skip a sales file that was already applied');
    b.tool('apply_patch', { path: 'src/stock.ts', old_string: 'a', new_string: 'b' }, 'ok');
    expect(items(extractSections(b.log.surface()), 'Done').join('\n')).toContain('src/alerts.ts sends a console warning');
  });
});
