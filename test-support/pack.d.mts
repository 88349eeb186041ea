/** A workspace package: its folder (relative to the repository root), name, version and manifest. */
export interface WorkspacePackage {
  dir: string;
  name: string;
  version: string;
  manifest: Record<string, unknown>;
}

/** Repository root (the folder holding `test-support/`). */
export const REPO_ROOT: string;
/** The non-private workspace packages the root package.json lists, in its order. */
export function workspacePackages(root?: string): WorkspacePackage[];
/** `names` plus the workspace packages they need at run time, transitively (optional peers excluded). */
export function internalClosure(names: string[], packages?: WorkspacePackage[]): WorkspacePackage[];
/** `npm pack` each package into `dest`; returns package name -> absolute tarball path. */
export function packWorkspaces(dest: string, packages?: WorkspacePackage[], root?: string): Record<string, string>;
/** Install the tarballs (name -> path) into an empty folder `dir` with `npm install`; returns npm's output. */
export function installTarballs(dir: string, tarballs: Record<string, string>, opts?: { env?: NodeJS.ProcessEnv; args?: string[]; timeoutMs?: number }): string;
