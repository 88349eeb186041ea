import type { Command } from 'commander';

/** Register the `notes` command(s). Owned by the package that implements them. */
export function register(program: Command): void {
  void program;
}
