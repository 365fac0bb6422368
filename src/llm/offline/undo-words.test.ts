import { describe, expect, it } from 'vitest';
import { createOfflinePlanner } from './planner.js';
import { memoryPrefs, step } from './testing.js';

const first = (text: string) => step(createOfflinePlanner({ prefs: memoryPrefs() }), [{ role: 'user', content: text }]);

describe('asking the offline planner to undo', () => {
  it.each(['撤销', '撤销刚才的操作', '帮我撤销一下刚才的改动吧', '撤回上一步'])(
    '%s: says where undo is, in Chinese',
    async (text) => {
      const r = await first(text);
      expect(r.calls).toEqual([]);
      expect(r.text).toMatch(/^撤销不在对话里做：在命令行运行 zhixing undo，在 REPL 里输入 \/undo/);
    },
  );

  it.each(['undo', 'undo that', 'Please undo what you just did!', 'revert the last change'])(
    '%s: says where undo is, in English',
    async (text) => {
      const r = await first(text);
      expect(r.calls).toEqual([]);
      expect(r.text).toMatch(/^Undo is not something I do in a reply: run `zhixing undo`/);
    },
  );

  it('leaves a file task that mentions the word to its tool', async () => {
    expect((await first('把撤销的步骤写到 notes.txt')).parsed.map((c) => c.name)).toEqual(['file_write']);
  });
});
