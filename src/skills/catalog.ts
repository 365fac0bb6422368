import type { Lang } from '../i18n.js';
import { discoverSkills, type HeaderCache, type Skill, type SkillFolder } from './discover.js';

/** The skills there are, found again on each look (a skill added while the server runs shows up), parsed once per file. */
export interface SkillCatalog {
  /** Every skill, sorted by name. Never throws: a bad skill is skipped with a warning. */
  list(): Promise<Skill[]>;
  get(name: string): Promise<Skill | undefined>;
}

export interface SkillCatalogOptions {
  /** Lowest precedence first: shipped, then the user's, then the project's. */
  folders: SkillFolder[];
  /** Real path of the workspace: nothing there is taken for a skill. */
  workspace: string;
  /** The language of the warnings. */
  lang: Lang;
  /** Told once per process about each skill or folder that was skipped, and why. */
  warn(line: string): void;
}

export function createSkillCatalog(options: SkillCatalogOptions): SkillCatalog {
  const cache: HeaderCache = new Map();
  const warned = new Set<string>();
  // YAML's parser is some 50 modules: loaded only for a front matter that is more than `key: text` lines.
  let parser: Promise<(text: string) => unknown> | undefined;
  const loadYaml = () =>
    (parser ??= import('yaml').then((yaml) => (text: string) => yaml.parse(text, { maxAliasCount: 100 }) as unknown));

  async function find(): Promise<Map<string, Skill>> {
    try {
      const { skills, warnings } = await discoverSkills({ ...options, loadYaml, cache });
      for (const line of warnings) {
        if (warned.has(line)) continue;
        warned.add(line);
        options.warn(line);
      }
      return skills;
    } catch (err) {
      // Discovery handles what it expects; anything else must still not take a turn down with it.
      const line = `Skills could not be read: ${(err as Error).message}`;
      if (!warned.has(line)) options.warn(line);
      warned.add(line);
      return new Map();
    }
  }

  return {
    async list() {
      return [...(await find()).values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    async get(name) {
      return (await find()).get(name);
    },
  };
}
