/**
 * The JSON5 locator and targeted edits behind the OpenClaw installer: tricky JSON5
 * syntax, and a property test (fast-check) that insert/remove change exactly the data
 * intended and that insert-then-remove gives back the original bytes.
 */
import fc from 'fast-check';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { JSON5_FORMAT, locate, nodeAtPath } from '../src/install/format-json5.js';

const insertMember = (t: string, path: string[], key: string, v: unknown) => JSON5_FORMAT.insertMember(t, path, key, v);
const removeMember = (t: string, path: string[], key: string) => JSON5_FORMAT.removeMember(t, path, key);

const TRICKY = `// top comment with { braces } and "quotes"
{
  unquoted: 'single \\'quoted\\' with // not a comment',
  "double": "has /* no comment */ inside",
  $dollar_key: 0x1F,
  nested: {
    inf: Infinity, nan: NaN, neg: -.5e3, plus: +1,
    arr: [1, 'two', { three: 3, }, [],], // trailing commas
    multi: 'line one \\
line two',
  },
  /* block
     comment } */
  last: null,
}
`;

describe('json5 locator', () => {
  it('locates members of a document using every JSON5 feature', () => {
    const root = locate(TRICKY);
    expect(root.members!.map((m) => m.key)).toEqual(['unquoted', 'double', '$dollar_key', 'nested', 'last']);
    const nested = nodeAtPath(root, ['nested'])!;
    expect(nested.members!.map((m) => m.key)).toEqual(['inf', 'nan', 'neg', 'plus', 'arr', 'multi']);
    expect(TRICKY.slice(nodeAtPath(root, ['nested', 'arr'])!.start, nodeAtPath(root, ['nested', 'arr'])!.end)).toBe("[1, 'two', { three: 3, }, [],]");
    expect(TRICKY.slice(nodeAtPath(root, ['$dollar_key'])!.start, nodeAtPath(root, ['$dollar_key'])!.end)).toBe('0x1F');
  });

  it('inserts and removes members without touching anything else', () => {
    const ins = insertMember(TRICKY, ['nested'], 'hive-mind', { enabled: true });
    expect(JSON5.parse(ins).nested['hive-mind']).toEqual({ enabled: true });
    expect(ins.replace('    "hive-mind": { enabled: true },\n', '')).toBe(TRICKY);
    expect(removeMember(ins, ['nested'], 'hive-mind')).toBe(TRICKY);
    // removing the last member keeps the comment before it and the data of the rest
    const noLast = removeMember(TRICKY, [], 'last');
    expect(noLast).toContain('/* block');
    const expected = JSON5.parse(TRICKY);
    delete expected.last;
    expect(JSON5.parse(noLast)).toEqual(expected);
  });

  it('handles one-line objects and objects without a trailing comma', () => {
    const t = '{"a": 1, "b": {"c": 2}}';
    const ins = insertMember(t, ['b'], 'd', true);
    expect(JSON5.parse(ins)).toEqual({ a: 1, b: { c: 2, d: true } });
    const back = removeMember(ins, ['b'], 'd');
    expect(back).toBe(t);
    expect(JSON5.parse(insertMember('{}', [], 'x', { y: 1 }))).toEqual({ x: { y: 1 } });
  });

  it('property: insert then remove gives back the exact text, and the data changes only by that member', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
    const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 12 }));
    const value = fc.oneof(scalar, fc.dictionary(key, scalar, { maxKeys: 3 }));
    const style = fc.record({ trailing: fc.boolean(), comment: fc.boolean(), singleQuotes: fc.boolean(), bare: fc.boolean() });
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), key, value, style, (obj, newKey, newVal, st) => {
        fc.pre(!(newKey in obj));
        const lines = Object.entries(obj).map(([k, v]) => {
          const kk = st.bare && /^[a-z_$][\w$]*$/i.test(k) ? k : st.singleQuotes ? `'${k.replace(/'/g, "\\'")}'` : JSON.stringify(k);
          return `  ${kk}: ${JSON5.stringify(v)}`;
        });
        const text = `${st.comment ? '// config\n' : ''}{\n${lines.join(',\n')}${st.trailing ? ',' : ''}${st.comment ? ' // last' : ''}\n}\n`;
        const ins = insertMember(text, [], newKey, newVal);
        expect(JSON5.parse(ins)).toEqual({ ...JSON5.parse(text), [newKey]: newVal });
        const back = removeMember(ins, [], newKey);
        expect(back).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
