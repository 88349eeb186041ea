import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Mind, mindHome, personalMindPath, workspaceMindPath } from '@hive-mind/mind';
import { workspaceOf } from '@hive-mind/hooks';

/**
 * The minds a person can pick: first the view of the server's folder ({@link VIEW_ID}: what a
 * session started there sees, its workspace mind and the personal mind, merged), then the personal
 * mind and every workspace mind under `<home>/workspaces/`. The browser names a mind by its id
 * (`here`, `personal`, or `workspace:<file stem>`), never by a path: an id is looked up in this
 * list, so no request can open a file elsewhere. Threads are a filter inside a mind (frames with a
 * thread key).
 */

/** The id of the view of the server's folder: its workspace mind and the personal mind, read as one. */
export const VIEW_ID = 'here';

/**
 * One pickable mind. `workspace` is the workspace path its frames record, when any does. The view
 * ({@link VIEW_ID}, kind `view`) names the minds it merges in `members` (ids of this list, the
 * workspace mind first, only those whose file exists), its `folder` and that folder's `workspace`
 * (the git root, as the hooks compute it); its `path` is the workspace mind's file (it may not exist).
 */
export interface MindEntry {
  id: string;
  label: string;
  path: string;
  kind: 'personal' | 'workspace' | 'view';
  exists: boolean;
  bytes: number;
  workspace?: string;
  members?: string[];
  folder?: string;
}

/** Open handles, one per file for the server's life (WAL lets hooks and the CLI write beside them). */
export class MindRegistry {
  private readonly open = new Map<string, Mind>();

  /** `folder`: the folder whose session's minds the view holds (`hive-mind ui` gives its working directory). */
  constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly folder: string = process.cwd(),
  ) {}

  /** The view of {@link folder}, then every mind on disk, the personal one first (listed even before it exists). */
  list(): MindEntry[] {
    const minds = this.files();
    return [this.viewOf(minds), ...minds];
  }

  /** The view entry of the folder over `minds` (the files listed). */
  private viewOf(minds: MindEntry[]): MindEntry {
    const workspace = workspaceOf(this.folder) ?? this.folder;
    const wsPath = workspaceMindPath(workspace, this.env);
    const members = [minds.find((m) => m.kind === 'workspace' && m.path === wsPath), minds.find((m) => m.kind === 'personal' && m.exists)].filter((m): m is MindEntry => !!m);
    return {
      id: VIEW_ID,
      label: `this folder: workspace ${workspace} + personal`,
      path: wsPath,
      kind: 'view',
      exists: members.length > 0,
      bytes: members.reduce((n, m) => n + m.bytes, 0),
      workspace,
      folder: this.folder,
      members: members.map((m) => m.id),
    };
  }

  /** The personal mind and every workspace mind on disk. */
  private files(): MindEntry[] {
    const out: MindEntry[] = [];
    const personal = personalMindPath(this.env);
    out.push({ id: 'personal', label: 'personal', path: personal, kind: 'personal', exists: existsSync(personal), bytes: sizeOf(personal) });
    const dir = join(mindHome(this.env), 'workspaces');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.mind')).sort();
    } catch {
      /* no workspace mind yet */
    }
    for (const n of names) {
      const path = join(dir, n);
      const stem = basename(n, '.mind');
      const workspace = this.workspaceOf(path);
      out.push({ id: `workspace:${stem}`, label: workspace ?? stem, path, kind: 'workspace', exists: true, bytes: sizeOf(path), ...(workspace ? { workspace } : {}) });
    }
    return out;
  }

  /** The entry of `id`, or undefined when no such mind is listed. */
  entry(id: string): MindEntry | undefined {
    return this.list().find((m) => m.id === id);
  }

  /** The open mind of `id` (created on first write for the personal one). Undefined when the id is unknown or the view's, or, with `mustExist`, the file is missing. */
  get(id: string, mustExist = true): Mind | undefined {
    const e = this.entry(id);
    if (!e || e.kind === 'view' || (mustExist && !existsSync(e.path))) return undefined;
    let m = this.open.get(e.path);
    if (!m) {
      m = Mind.open(e.path);
      this.open.set(e.path, m);
    }
    return m;
  }

  /** The workspace path recorded by the frames of the mind at `path` (the hooks store it on every capture). */
  private workspaceOf(path: string): string | undefined {
    const m = this.open.get(path);
    const read = (mind: Mind) => (mind.database.prepare("SELECT workspace FROM frames WHERE workspace <> '' ORDER BY id DESC LIMIT 1").get() as { workspace: string } | undefined)?.workspace;
    try {
      if (m) return read(m);
      const ro = Mind.open(path, { readonly: true });
      try {
        return read(ro);
      } finally {
        ro.close();
      }
    } catch {
      return undefined;
    }
  }

  close(): void {
    for (const m of this.open.values()) m.close();
    this.open.clear();
  }
}

function sizeOf(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}
