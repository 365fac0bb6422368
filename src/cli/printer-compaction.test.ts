import { describe, expect, it } from 'vitest';
import { createBus } from '../bus/bus.js';
import type { Message } from '../contract/message.js';
import { attachPrinter } from './printer.js';
import { createStyle } from './style.js';
import { renderHistory } from './repl-history-view.js';

const turn = { sessionId: 'ses_1', turnId: 'trn_1' };

describe('compaction in the CLI', () => {
  it("prints one line in the trace when older messages are summarised, and one when that failed, in the user's language", () => {
    for (const [lang, compacted, failed] of [
      [
        'en',
        "🗜 Summarised 42 earlier messages to fit the model's context (every message is kept; see /history)",
        '🗜 Could not summarise earlier messages (the model took too long to write the summary); this turn sends the most recent messages that fit',
      ],
      [
        'zh',
        '🗜 已把较早的 42 条消息压缩成摘要，以放进模型的上下文（原消息都还在，/history 可查看）',
        '🗜 没能压缩较早的消息（the model took too long to write the summary），这一轮只发送放得下的最近消息',
      ],
    ] as const) {
      const bus = createBus();
      let out = '';
      const detach = attachPrinter({
        bus,
        sessionId: 'ses_1',
        write: (s) => (out += s),
        style: createStyle(false),
        showActions: true,
        lang: () => lang,
      });
      bus.emit({ type: 'context.compacted', ...turn, messageId: 'msg_1', partId: 'prt_1', messages: 42, model: 'm' });
      bus.emit({ type: 'context.compaction_failed', ...turn, reason: 'the model took too long to write the summary' });
      bus.emit({
        type: 'context.compacted',
        ...turn,
        sessionId: 'ses_2',
        messageId: 'msg_2',
        partId: 'prt_2',
        messages: 1,
        model: 'm',
      });
      detach();
      expect(out).toBe(`${compacted}\n${failed}\n`);
    }
  });

  it('shows a summary part in /history, after the messages it covers', () => {
    const messages: Message[] = [
      {
        id: 'm1',
        sessionId: 's',
        turnId: 't1',
        role: 'user',
        createdAt: 1,
        parts: [{ id: 'p1', type: 'text', text: 'read notes.md' }],
      },
      {
        id: 'm2',
        sessionId: 's',
        turnId: 't2',
        role: 'assistant',
        createdAt: 2,
        parts: [
          {
            id: 'p2',
            type: 'summary',
            text: '## Goal\n- read the notes',
            covers: { upTo: 'm1', upToCreatedAt: 1, messages: 1, model: 'rules' },
          },
        ],
      },
    ];
    expect(renderHistory(messages, { style: createStyle(false), lang: () => 'en' })).toBe(
      '› read notes.md\n🗜 Summary of the 1 earlier messages (what the model reads from now on; they are still above):\n  ## Goal\n  - read the notes',
    );
  });
});
