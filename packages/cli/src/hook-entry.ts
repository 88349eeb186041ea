/**
 * Lean entry for `hive-mind hook HOST EVENT` (what agent hosts run on every lifecycle
 * event): loads only the hook runner (no commander, no MCP SDK, no LLM client, no
 * tokenizer). Always exits 0; failures go to `<home>/logs/hooks.log`.
 */
export async function runHookEntry(argv: string[]): Promise<void> {
  try {
    const { runHook } = await import('@hive-mind/hooks/run');
    await runHook(argv);
  } catch {
    // even a broken install must not break the host
  }
  process.exitCode = 0;
}
