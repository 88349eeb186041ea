/**
 * Compaction names hosts without importing the host table (it installs alone, without
 * @hive-mind/transcripts: test-support/packaging.test.ts), so the hosts it names are pinned to the
 * table here: the CLI summarizers, the host-summary forms and the tool vocabulary name only ids
 * of rows of `HOSTS` (plus `mcp`, an MCP server's tools, in the vocabulary).
 */
import { describe, expect, it } from 'vitest';
import { HOST_NAMES, type HostName } from '@hive-mind/transcripts/hosts';
import { HOST_SUMMARIZERS, TOOL_VOCABULARY } from '@hive-mind/compaction';
import type { HostSummaryForm } from '../src/host-summary.js';

// compile-time (the typecheck reads tests): each of compaction's host unions is a subset of the table's ids
const typed: ReadonlyArray<HostName> = [...HOST_SUMMARIZERS, ...([] as Array<HostSummaryForm['host']>)];

describe("compaction's host names are ids of the host table", () => {
  it('the CLI summarizers are table hosts', () => {
    expect(HOST_NAMES).toEqual(expect.arrayContaining([...typed]));
  });

  it("the tool vocabulary's hosts are table hosts, or mcp", () => {
    const named = [...new Set(TOOL_VOCABULARY.flatMap((s) => s.hosts))].filter((h) => h !== 'mcp');
    expect(named.filter((h) => !(HOST_NAMES as readonly string[]).includes(h))).toEqual([]);
  });
});
