import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** A program on the search path (then in `extra`), as an absolute path, or undefined. */
export function findProgram(name: string, searchPath: string, extra: string[] = []): string | undefined {
  for (const dir of [...searchPath.split(path.delimiter), ...extra]) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
