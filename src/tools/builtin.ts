import type { BrowserManager } from '../browser/manager.js';
import type { Config } from '../config/config.js';
import type { NetworkPolicy } from '../net/policy.js';
import type { MemoryService } from '../memory/types.js';
import type { SandboxInfo } from '../shell/sandbox.js';
import type { SkillCatalog } from '../skills/catalog.js';
import type { Store } from '../store/store.js';
import { createBrowserTools } from './browser.js';
import { calculatorTool } from './calculator.js';
import { createCurrentTimeTool } from './current-time.js';
import { fileListTool } from './file-list.js';
import { fileReadTool } from './file-read.js';
import { fileWriteTool } from './file-write.js';
import { createPdfReadTool } from './pdf-read.js';
import { createMemoryTools } from './memory.js';
import { createShellTool } from './shell.js';
import { createSkillTool } from './skill.js';
import { createTodoTools } from './todos.js';
import type { Tool } from './tool.js';
import { createWeatherTool } from './weather.js';
import { createWebSearchTool } from './web-search.js';
import { createWebFetchTool } from './web-fetch.js';

export interface BuiltinDeps {
  config: Config;
  store: Store;
  /** What containment shell commands run in (found on first use). */
  sandbox: () => Promise<SandboxInfo>;
  /** Programs the shell rules deny outright (`programsDeniedOutright`): masked inside the sandbox. */
  maskPrograms?: () => string[];
  /** Folders shell commands must be able to read wherever they lie: the installation, a project's skills. */
  shown?: string[];
  /** Folders nothing shown to commands may hold: see ShellToolDeps.private. */
  private?: string[];
  /** Folders whose scripts count as known code for the rules: the shipped and the user's own skills. */
  knownScripts?: string[];
  /** The skills the `skill` tool loads. */
  skills: SkillCatalog;
  /** Long-term memory, for memory_save and memory_search; absent, they are not offered. */
  memory?: MemoryService;
  /** Where the open-web tools may connect; default: public addresses, or any with config.web.allowPrivateNetwork. Tests inject a lookup. */
  networkPolicy?: NetworkPolicy;
  /** The browser the browser_* tools drive (started on their first call); absent, they are not offered. */
  browser?: BrowserManager;
}

/** Every built-in tool, in the order the model sees them. */
export function builtinTools(deps: BuiltinDeps): Tool[] {
  const { config } = deps;
  return [
    calculatorTool,
    createCurrentTimeTool(),
    ...createTodoTools(deps.store.todos),
    fileReadTool,
    fileWriteTool,
    fileListTool,
    createPdfReadTool(),
    createWeatherTool({ geocodingUrl: config.geocodingUrl, forecastUrl: config.weatherUrl }),
    createShellTool({
      home: config.home,
      dbPath: config.dbPath,
      network: config.shell.network,
      env: config.shell.env,
      sandbox: deps.sandbox,
      maskPrograms: deps.maskPrograms,
      shown: deps.shown,
      private: deps.private,
      knownScripts: deps.knownScripts,
    }),
    createSkillTool(deps.skills),
    createWebFetchTool({ policy: deps.networkPolicy ?? { allowPrivate: config.web.allowPrivateNetwork } }),
    createWebSearchTool({ search: config.web.search }),
    ...(deps.memory
      ? createMemoryTools({ memory: deps.memory, sessionTitle: (id) => deps.store.sessions.get(id)?.title })
      : []),
    ...(deps.browser ? createBrowserTools(deps.browser) : []),
  ];
}
