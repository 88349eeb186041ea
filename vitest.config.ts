import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { hasSharedData, SHARED_DATA, testsReadingSharedData } from './test-support/shared-data.js';

// A clone with nothing beside it: leave out the test files that read ../shared/data, and say so.
const withoutSharedData = hasSharedData() ? [] : testsReadingSharedData();
if (withoutSharedData.length > 0) {
  console.warn(`hive-mind: ${SHARED_DATA} is missing, so ${withoutSharedData.length} test files that read it are left out (put the shared data beside the checkout to run them):\n  ${withoutSharedData.join('\n  ')}`);
}

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@hive-mind/session/sqlite': fileURLToPath(new URL('./packages/session/src/sqlite.ts', import.meta.url)),
      '@hive-mind/session': pkg('session'),
      '@hive-mind/transcripts/hosts': fileURLToPath(new URL('./packages/transcripts/src/host-table.ts', import.meta.url)),
      '@hive-mind/transcripts/user-home': fileURLToPath(new URL('./packages/transcripts/src/user-home.ts', import.meta.url)),
      '@hive-mind/transcripts/host-dirs': fileURLToPath(new URL('./packages/transcripts/src/host-dirs.ts', import.meta.url)),
      '@hive-mind/transcripts': pkg('transcripts'),
      '@hive-mind/mind/dirs': fileURLToPath(new URL('./packages/mind/src/dirs.ts', import.meta.url)),
      '@hive-mind/mind/atomic': fileURLToPath(new URL('./packages/mind/src/store/atomic.ts', import.meta.url)),
      '@hive-mind/mind/hook': fileURLToPath(new URL('./packages/mind/src/hook.ts', import.meta.url)),
      '@hive-mind/mind/redact': fileURLToPath(new URL('./packages/mind/src/safety/redact.ts', import.meta.url)),
      '@hive-mind/mind/neutralize': fileURLToPath(new URL('./packages/mind/src/safety/neutralize.ts', import.meta.url)),
      '@hive-mind/mind/settings': fileURLToPath(new URL('./packages/mind/src/settings.ts', import.meta.url)),
      '@hive-mind/mind/home': fileURLToPath(new URL('./packages/mind/src/home.ts', import.meta.url)),
      '@hive-mind/mind/paths': fileURLToPath(new URL('./packages/mind/src/paths.ts', import.meta.url)),
      '@hive-mind/mind/history': fileURLToPath(new URL('./packages/mind/src/history/history.ts', import.meta.url)),
      '@hive-mind/compaction/summarizers': fileURLToPath(new URL('./packages/compaction/src/summarizer-names.ts', import.meta.url)),
      '@hive-mind/compaction/tokens': fileURLToPath(new URL('./packages/compaction/src/tokens.ts', import.meta.url)),
      '@hive-mind/compaction': pkg('compaction'),
      '@hive-mind/mind': pkg('mind'),
      '@hive-mind/hooks/hosts': fileURLToPath(new URL('./packages/hooks/src/registry.ts', import.meta.url)),
      '@hive-mind/hooks': pkg('hooks'),
      '@hive-mind/adapters/ai-sdk': fileURLToPath(new URL('./packages/adapters/src/ai-sdk.ts', import.meta.url)),
      '@hive-mind/adapters/openai-agents': fileURLToPath(new URL('./packages/adapters/src/openai-agents.ts', import.meta.url)),
      '@hive-mind/adapters/langchain': fileURLToPath(new URL('./packages/adapters/src/langchain.ts', import.meta.url)),
      '@hive-mind/adapters/pi': fileURLToPath(new URL('./packages/adapters/src/pi.ts', import.meta.url)),
      '@hive-mind/adapters': pkg('adapters'),
      '@hive-mind/mcp/stdio': fileURLToPath(new URL('./packages/mcp/src/stdio.ts', import.meta.url)),
      '@hive-mind/mcp': pkg('mcp'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test-support/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...withoutSharedData],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
