import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createBus, type Bus } from './bus/bus.js';
import { setConfigKey } from './config/config-writer.js';
import { createMcpServersSaver } from './config/mcp-servers-file.js';
import type { Config } from './config/config.js';
import { CONFIG_FILE } from './config/paths.js';
import { detectLang } from './i18n.js';
import type { Llm } from './llm/types.js';
import { createPermissionService, type PermissionService } from './permission/permission.js';
import { createEventLog, type EventLog } from './sessions/event-log.js';
import { createSessions, type SessionsService } from './sessions/sessions.js';
import { DEFAULT_PATH } from './shell/env.js';
import { sandboxProbe, type SandboxInfo } from './shell/sandbox.js';
import { createStore, type Store } from './store/store.js';
import { toStoreError } from './store/store-error.js';
import { createSkillCatalog, type SkillCatalog } from './skills/catalog.js';
import { shippedSkillsDir } from './skills/shipped.js';
import { builtinTools } from './tools/builtin.js';
import { maskedUnder } from './shell/denied-programs.js';
import { matchGlob } from './permission/glob.js';
import { createToolRegistry, type Scrub, type ToolRegistry } from './tools/registry.js';
import { createRedactor, redactDeep } from './llm/redact.js';
import { createWorkspaceUndo } from './undo/undo.js';
import { createMcpManager } from './mcp/manager.js';
import { serverTrusted } from './permission/rules.js';
import type { McpManager } from './mcp/types.js';
import type { RetryPolicy } from './mcp/client/backoff.js';
import { createContextService } from './agent/context-service.js';
import { createMemoryService } from './memory/service.js';
import { createEmbeddingsClient } from './llm/embeddings-client.js';
import { createPreferences } from './memory/preferences.js';
import type { MemoryService, PreferencesService } from './memory/types.js';
import { createBrowserManager, type BrowserManager } from './browser/manager.js';

/** The home and workspace Zhixing makes are the user's alone: they hold the key, the history, their files. */
const PRIVATE_FOLDER_MODE = 0o700;

export interface App {
  config: Config;
  /** Absolute, real path of the file sandbox the tools work in. */
  workspace: string;
  store: Store;
  bus: Bus;
  tools: ToolRegistry;
  /** The skills from the installation, `$ZHIXING_HOME/skills` and `./.zhixing/skills`. */
  skills: SkillCatalog;
  llm: Llm;
  sessions: SessionsService;
  /** The MCP servers Zhixing connects to: their state, and adding, removing and reconnecting them. */
  mcp: McpManager;
  /** Long-term memories: saved and searched by the tools, recalled into the context, edited by the user. */
  memory: MemoryService;
  /** The user's standing instructions, in every system prompt. */
  preferences: PreferencesService;
  /** A session's events after a number, from the store: what a reconnecting client missed. */
  events: Pick<EventLog, 'since' | 'lastSeq' | 'resumePoint'>;
  /** Answers the asks a turn waits on; `pending` for a host that connects while one waits. */
  permission: Pick<
    PermissionService,
    'askFor' | 'reply' | 'refuseUnanswered' | 'pending' | 'rules' | 'effective' | 'setRules' | 'remembered' | 'forget'
  >;
  /** What containment shell commands run in here, found by trying it on first use. */
  sandbox(): Promise<SandboxInfo>;
  /** The browser the browser_* tools drive: started on their first call, a context per session. */
  browser: BrowserManager;
  /** Closes the store, stops the MCP servers it started and the browser (without waiting for them to exit). */
  close(): void;
}

export interface AppOptions {
  /** `--yes`: approve permission asks without prompting (never overrides a refusal). */
  autoApprove?: boolean;
  /** A model to use instead of the configured one (tests, benchmarks). */
  llm?: Llm;
  /** Told each line about something skipped on the way (a broken skill); by default written to stderr. */
  warn?: (line: string) => void;
  /** How MCP servers that fail to connect are tried again, instead of the default backoff (tests). */
  mcpRetry?: RetryPolicy;
}

/** The model the configuration asks for. The OpenAI SDK is loaded only when a model is configured. */
async function createLlm(config: Config, store: Store): Promise<Llm> {
  if (config.mode === 'offline') {
    const { createOfflinePlanner } = await import('./llm/offline/planner.js');
    return createOfflinePlanner({ prefs: store.prefs, lang: config.lang, workspace: config.workspace });
  }
  const { createOpenAiLlm } = await import('./llm/openai-client.js');
  return createOpenAiLlm({
    baseUrl: config.baseUrl!,
    apiKey: config.apiKey,
    model: config.model,
    provider: config.provider,
    timeoutMs: config.requestTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    maxRetries: config.maxRetries,
    // Retries and waits are told per request, by the turn that made it (it knows the session).
  });
}

/** The keys' redaction for what passes through the tools (the model's, the embeddings'); nothing to do without a key. */
function scrubFor(apiKeys: Array<string | undefined>): Scrub | undefined {
  const redactors = [...new Set(apiKeys.filter((k): k is string => Boolean(k)))].map(createRedactor);
  if (redactors.length === 0) return undefined;
  const redact = (text: string) => redactors.reduce((t, r) => r(t), text);
  return { text: redact, value: (value) => redactDeep(value, redact) };
}

/** Memories saved without a vector (the endpoint was down, the model changed) are embedded this long after start. */
const EMBED_ON_START_AFTER_MS = 2_000;

/** The composition root: the only place that builds services and wires them together. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  // Only folders made here get the mode; an existing home keeps the one its user gave it.
  try {
    mkdirSync(config.home, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    mkdirSync(config.workspace, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  } catch (err) {
    // A read-only or full disk, a file where the folder should be: one plain sentence, not a stack.
    throw toStoreError(err, config.home);
  }
  const workspace = realpathSync(config.workspace);
  const store = createStore(config.dbPath);
  const events = createEventLog({ store });
  const bus = createBus({ stamp: events.stamp });
  const scrub = scrubFor([config.apiKey, config.embedding?.apiKey, config.web.search?.apiKey]);
  // Tried on first use (a shell command, a status request), not at every start.
  const sandbox = sandboxProbe({ searchPath: config.shell.env.PATH || DEFAULT_PATH, network: config.shell.network });
  const skills = createSkillCatalog({
    // Later folders win by name: a project's skill over the user's, the user's over a shipped one.
    folders: [
      { source: 'shipped', path: shippedSkillsDir() },
      { source: 'user', path: config.userSkillsDir },
      { source: 'project', path: config.projectSkillsDir },
    ],
    workspace,
    lang: config.uiLang,
    warn: options.warn ?? ((line) => process.stderr.write(`zhixing: ${line}\n`)),
  });
  const memory = createMemoryService({
    repo: store.memories,
    newId: () => store.newId('mem'),
    vectors: store.memoryVectors,
    embedder: config.embedding && createEmbeddingsClient(config.embedding),
    // Not during start-up itself: a one-shot call is usually done before this fires.
    embedOnStartAfterMs: EMBED_ON_START_AFTER_MS,
  });
  // Nothing is started here: Chromium (or the attachment to the user's Chrome) waits for the first browser call.
  const browser = createBrowserManager({
    source: {
      chromiumPath: config.web.chromiumPath,
      cdpUrl: config.web.browserCdpUrl,
      searchPath: config.shell.env.PATH || DEFAULT_PATH,
      env: config.shell.env,
    },
    policy: { allowPrivate: config.web.allowPrivateNetwork },
  });
  const tools = createToolRegistry(
    builtinTools({
      config,
      store,
      memory,
      browser,
      sandbox,
      skills,
      // Read at each command (the service exists by then): rules edited while running apply at once.
      maskPrograms: () => maskedUnder(permission.effective(), (key) => matchGlob(key, 'shell')),
      // Skills' scripts run through the shell and import this installation's packages: those, not the
      // installation whole (run from a checkout, it is the start folder, ./.env and all).
      shown: [
        shippedSkillsDir(),
        join(dirname(shippedSkillsDir()), 'node_modules'),
        join(dirname(shippedSkillsDir()), 'package.json'),
        config.projectSkillsDir,
      ],
      // The folder Zhixing was started in (the project skills' folder is <start>/.zhixing/skills).
      private: [dirname(dirname(config.projectSkillsDir))],
      // Their scripts are known code: a rule may allow them (a project's skills, from a cloned folder, are not).
      knownScripts: [shippedSkillsDir(), config.userSkillsDir],
    }),
    { defaultTimeoutMs: config.toolTimeoutMs, scrub },
  );
  const llm = options.llm ?? (await createLlm(config, store));
  const undo = createWorkspaceUndo({
    repo: store.snapshots,
    dir: join(config.home, 'snapshots'),
    workspace,
    limits: config.undo,
    redact: scrub?.text,
  });
  try {
    undo.tidy(true);
  } catch {
    // Old copies left on disk cost space, not correctness: the next turn tries again.
  }
  const permission = createPermissionService({
    bus,
    decisions: store.permissionDecisions,
    rules: config.permissions,
    saveRules: (rules) => setConfigKey(join(config.home, CONFIG_FILE), 'permissions', rules),
    autoApprove: options.autoApprove,
  });
  const mcp = createMcpManager({
    servers: config.mcpServers,
    tools,
    // Only what this process changed: servers another process added or removed meanwhile stay so.
    saveServers: createMcpServersSaver(join(config.home, CONFIG_FILE), config.mcpServers),
    // A server is trusted when the rules let any of its tools run without asking (`"<name>__*": "allow"`):
    // asked of the rules engine with a tool name no server can have, so no rule for one tool counts.
    trusted: (name) => serverTrusted(permission.effective(), name),
    retry: options.mcpRetry,
  });
  const preferences = createPreferences(store.prefs);
  const context = createContextService({
    store,
    bus,
    llm,
    settings: { window: config.contextWindow, compaction: config.compaction },
    // Read at each turn's start: a preference or memory saved in the last turn is in the next one.
    preferences: () => preferences.list(),
    recall: (input) => memory.recall(input),
  });
  const sessions = createSessions({
    llm,
    context,
    tools,
    // The offline planner never reads the system prompt: its turns do not pay for reading skills.
    skills: llm.mode === 'llm' ? () => skills.list() : undefined,
    bus,
    store,
    events,
    askFor: permission.askFor,
    workspace,
    maxSteps: config.maxSteps,
    maxReplyChars: config.maxReplyChars,
    turnTimeoutMs: config.turnTimeoutMs,
    lang: config.lang,
    detectLang,
    undo,
  });
  // A deleted session's pages, cookies and tabs go with it.
  bus.on('session.deleted', (e) => void browser.closeSession(e.sessionId));
  return {
    config,
    workspace,
    store,
    bus,
    tools,
    skills,
    llm,
    sessions,
    mcp,
    memory,
    preferences,
    events: { since: events.since, lastSeq: events.lastSeq, resumePoint: events.resumePoint },
    permission,
    sandbox,
    browser,
    close() {
      sessions.close();
      memory.close();
      void mcp.close();
      // Not awaited, as MCP: the process ends once Chromium has quit (a one-shot run waits for nothing else).
      void browser.close();
      store.close();
    },
  };
}
