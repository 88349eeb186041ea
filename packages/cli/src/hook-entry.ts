/**
 * Lean entry for `hive-mind hook HOST EVENT` (what agent hosts run on every lifecycle
 * event): loads only the hook runner (no commander, no MCP SDK, no LLM client, no
 * tokenizer). Always exits 0; failures go to `<home>/logs/hooks.log`. `--help`, `-h` or
 * fewer than two arguments print the usage (hosts and their events) on stdout.
 */
export async function runHookEntry(argv: string[]): Promise<void> {
  if (argv.length < 2 || argv.some((a) => a === '--help' || a === '-h')) {
    // usage on stdout, exit 0 (a host never calls it like this; a person does)
    try {
      const { hookUsage } = await import('@hive-mind/hooks/run');
      process.stdout.write(await hookUsage());
    } catch {
      process.stdout.write('Usage: hive-mind hook <host> <event>  (payload JSON on stdin; always exits 0)\n');
    }
    process.exitCode = 0;
    return;
  }
  try {
    const { runHook } = await import('@hive-mind/hooks/run');
    // a SessionStart may start a background team sync: this same CLI, detached (hooks team-sync.ts)
    await runHook(argv, { teamSyncCommand: [process.execPath, ...process.execArgv, process.argv[1]!, 'team', 'sync', '--all', '--quiet', '--timeout', '20'] });
  } catch {
    // even a broken install must not break the host
  }
  process.exitCode = 0;
}
