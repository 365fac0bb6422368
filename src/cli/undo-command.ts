import type { Config } from '../config/config.js';
import { errorText, say } from '../i18n.js';
import type { CliIo } from './cli-io.js';
import type { OneShotFlags } from './command.js';
import { jsonLine, plainText } from './terminal-text.js';

/**
 * `zhixing undo [--session ID|N] [--json]`: the workspace back to before the last turn of the session
 * (the most recent by default) that changed files. 0 with the sentence saying what was restored;
 * 1 when there is nothing to undo or a turn is running; 2 for a session that does not exist.
 */
export async function runUndo(config: Config, cmd: { session?: string; json: boolean }, io: CliIo): Promise<number> {
  const lang = config.uiLang;
  const { createApp } = await import('../app.js');
  const { pickSession } = await import('./one-shot.js');
  const { SessionError } = await import('../sessions/sessions.js');
  let app;
  try {
    app = await createApp(config);
  } catch (err) {
    return (io.stderr(`zhixing: ${plainText(err instanceof Error ? err.message : String(err))}\n`), 1);
  }
  const fail = (code: string, message: string, exit: number) => {
    if (cmd.json) io.stdout(jsonLine({ error: { code, message } }));
    io.stderr(`zhixing: ${plainText(message)}\n`);
    return exit;
  };
  try {
    if (!cmd.session && !app.sessions.mostRecent()) {
      return fail(
        'nothing_to_undo',
        say(lang, '没有可以撤销的：还没有会话。', 'Nothing to undo: there are no sessions yet.'),
        1,
      );
    }
    const flags = { session: cmd.session, new: false } as OneShotFlags;
    const sessionId = pickSession(app, flags);
    // The sentence speaks the language of the session unless ZHIXING_LANG says otherwise.
    const result = await app.sessions.undo(sessionId, config.lang);
    io.stdout(cmd.json ? jsonLine({ session: sessionId, ...result }) : `${plainText(result.message)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof SessionError) {
      return fail(err.code, errorText(err, lang), err.code === 'not_found' ? 2 : 1);
    }
    return fail('internal', err instanceof Error ? err.message : String(err), 1);
  } finally {
    app.close();
  }
}
