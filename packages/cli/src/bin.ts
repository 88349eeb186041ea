/**
 * Process entry of `hive-mind`. `hive-mind hook ...` (run by agent hosts on every
 * lifecycle event) takes a lean path that loads no CLI framework; everything else
 * goes through the commander program in main.ts.
 */
const argv = process.argv.slice(2);
if (argv[0] === 'help' && argv[1] === 'hook') {
  const { runHookEntry } = await import('./hook-entry.js');
  await runHookEntry(['--help']);
} else if (argv[0] === 'hook') {
  const { runHookEntry } = await import('./hook-entry.js');
  await runHookEntry(argv.slice(1));
} else if (argv[0] === 'mcp' && argv.length === 1) {
  // what hosts run on every session start: no CLI framework, and the server's fast start
  const { serveStdioUntilClosed } = await import('./mcp-stdio.js');
  await serveStdioUntilClosed({}).catch((err: unknown) => {
    process.stderr.write(`hive-mind: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
} else if (argv[0] === 'mcp') {
  // hosts start the MCP server on every session: skip loading the other commands
  const { runMcpEntry } = await import('./commands/mcp.js');
  await runMcpEntry(argv);
} else {
  const { main } = await import('./main.js');
  await main(argv);
}
