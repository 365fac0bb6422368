/**
 * A file named without its extension or path: 「读一下 readme」「打开日记文件」 "open my notes file".
 * The planner lists the workspace first, finds the one entry the name fits, then reads it (or lists
 * it, for a folder) — or says which names there are.
 */
import { say, type Lang } from '../../i18n.js';
import type { Second } from './intent.js';
import type { ToolResultData } from '../../contract/tool-data.js';
import { failed } from './tool-results.js';

interface Entry {
  name: string;
  folder: boolean;
}

/** The entries of a file_list output, in either language: "notes/", "a.txt (5 B)", "a.txt（5 B）". */
function entriesOf(listOutput: string): Entry[] {
  return listOutput
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('…'))
    .map((line) => {
      const name = line.replace(/\s*[（(][^）)]*[）)]$/, '');
      return name.endsWith('/') ? { name: name.slice(0, -1), folder: true } : { name, folder: false };
    });
}

const stem = (name: string): string => name.toLowerCase().replace(/\.[a-z0-9]{1,10}$/, '');

/** After the listing: the read (or listing) of the entry the name fits, or what to say instead. */
export function findFileStep(
  listOutput: string | undefined,
  wanted: string,
  lang: Lang,
  result?: ToolResultData,
): Second {
  if (listOutput === undefined || failed(listOutput, result)) {
    return {
      kind: 'note',
      note: say(
        lang,
        `没能查看工作区，所以没找到「${wanted}」。`,
        `I couldn't look in the workspace, so I didn't find "${wanted}".`,
      ),
    };
  }
  const entries = entriesOf(listOutput);
  const w = wanted.toLowerCase();
  const exact = entries.filter((e) => stem(e.name) === w || e.name.toLowerCase() === w);
  const fits = exact.length ? exact : entries.filter((e) => stem(e.name).includes(w));
  if (fits.length === 1) {
    const [e] = fits;
    return {
      kind: 'calls',
      calls: [e.folder ? { name: 'file_list', args: { path: e.name } } : { name: 'file_read', args: { path: e.name } }],
    };
  }
  const names = (fits.length ? fits : entries)
    .map((e) => (e.folder ? `${e.name}/` : e.name))
    .join(say(lang, '、', ', '));
  if (fits.length > 1) {
    return {
      kind: 'note',
      note: say(
        lang,
        `有几个文件都像「${wanted}」：${names}。是哪一个？`,
        `Several files fit "${wanted}": ${names}. Which one?`,
      ),
    };
  }
  return {
    kind: 'note',
    note: entries.length
      ? say(
          lang,
          `工作区里没有叫「${wanted}」的文件。现有：${names}。`,
          `There is no file called "${wanted}" in the workspace. There is: ${names}.`,
        )
      : say(
          lang,
          `工作区是空的，没有叫「${wanted}」的文件。`,
          `The workspace is empty: there is no file called "${wanted}".`,
        ),
  };
}
