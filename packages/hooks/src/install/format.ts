/**
 * What the installer core needs from a config format: parse to plain data (errors as
 * {@link HostConfigError}), and five located edits, each touching only the member or item
 * it names. A format may refuse a layout it cannot edit by lines by throwing
 * {@link UnsupportedEdit}; the core then tells the user the one line to add themselves.
 */
export type Path = Array<string | number>;

export interface ConfigFormat {
  /** Name used in messages (`JSON`, `JSON5`, `YAML`, `TOML`). */
  readonly name: string;
  /** Text of a new, empty document (a missing file starts as this). */
  readonly empty: string;
  /** Parse `text` to plain data; '' (or only comments/whitespace) is `{}`. Throws HostConfigError; the top level must be an object/mapping/table. */
  parse(file: string, text: string): Record<string, unknown>;
  /** Add `key: value` as the last member of the object at `path`. */
  insertMember(text: string, path: Path, key: string, value: unknown): string;
  /** Delete member `key` of the object at `path`. */
  removeMember(text: string, path: Path, key: string): string;
  /** Append `value` to the array at `path`. */
  appendItem(text: string, path: Path, value: unknown): string;
  /** Delete item `index` of the array at `path`. */
  removeItem(text: string, path: Path, index: number): string;
  /** Replace the value at `path`. */
  replaceValue(text: string, path: Path, value: unknown): string;
  /** Offset of the value at `path` (for error locations), or undefined. */
  offsetOf(text: string, path: Path): number | undefined;
}

/** Thrown by a format for a layout it does not edit; the core turns it into a HostConfigError. */
export class UnsupportedEdit extends Error {
  constructor(readonly offset: number | undefined, message: string) {
    super(message);
    this.name = 'UnsupportedEdit';
  }
}
