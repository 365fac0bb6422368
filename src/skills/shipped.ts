import { fileURLToPath } from 'node:url';

/**
 * The skills that come with Zhixing: `skills/` at the root of the installation. Every build of this
 * file sits two folders below that root (src/skills/ when tests run the sources, dist/skills/ when
 * compiled, dist/bundle/ when bundled), so the same relative path finds it from a clone, the bundled
 * CLI and an `npm install -g`.
 */
export const shippedSkillsDir = (): string =>
  fileURLToPath(new URL('../../skills/', import.meta.url)).replace(/[\\/]$/, '');
