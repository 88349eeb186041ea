/** Lean entry for `hive-mind hook HOST EVENT`: filled in by the hooks package. */
export async function runHookEntry(argv: string[]): Promise<void> {
  void argv;
}
