/**
 * How the memory tools' results are said offline. The search's output is read as the tool writes it
 * (numbered or bulleted lines, or JSON with `content`), so a change in the tool's layout costs at most
 * the kind and tags, never the answer.
 */
import { say, type Lang } from '../../i18n.js';
import { nameFrom } from './extract.js';

/** 「我叫…」, "my name is …": where the name starts. Not 「帮我叫个车」: someone else calling for me is no name. */
export const NAME_SET =
  /(?<![帮给让替请])我叫(?!个|辆|一|车|外卖)|我的名字(?:是|叫)|我名字(?:是|叫)|^(?:你可以|以后|就)?叫我|\bmy name is\b|\bmy name's\b|\bcall me\b|\bi am called\b/i;
export const NAME_RECALL =
  /我叫(?:什么|啥)|我的?名字(?:是|叫)?(?:什么|啥)|我是谁|(?:知道|记得)我(?:是谁|叫什么|叫啥|的名字)|还记得我|\bwhat(?:'s|s|\s+is)\s+my\s+name\b|\bdo you (?:know|remember) (?:my name|who i am|me)\b|\bwho am i\b/i;

export interface FoundMemory {
  content: string;
  /** Kind and tags as the output showed them, lower-case; empty when it showed none. */
  labels: string;
}

const LINE = /^\s*(?:\d+[.)、]|[-*•])\s*(?:\[([^\]]*)\]\s*)?(.+?)\s*$/;

/** The memories a memory_search output holds, best first. */
export function foundIn(output: string): FoundMemory[] {
  try {
    const value: unknown = JSON.parse(output);
    const list = Array.isArray(value)
      ? value
      : ((value as Record<string, unknown>)?.hits ??
        (value as Record<string, unknown>)?.memories ??
        (value as Record<string, unknown>)?.results);
    if (Array.isArray(list)) {
      return list
        .filter((m): m is { content: string; kind?: string; tags?: string[] } => typeof m?.content === 'string')
        .map((m) => ({
          content: m.content,
          labels: [m.kind ?? '', ...(Array.isArray(m.tags) ? m.tags : [])].join(' ').toLowerCase(),
        }));
    }
  } catch {
    // Not JSON: lines.
  }
  return output.split('\n').flatMap((line) => {
    const m = LINE.exec(line);
    if (!m) return [];
    // The tool writes `[kind] content（标签：a、b） —— 会话「…」` / `[kind] content (tags: a, b) — session "…"`.
    const rest = m[2]!.replace(/\s+(?:——\s*会话「|—\s*session ").*$/, '');
    const tagged = /^(.*?)(?:（标签：(.*)）| \(tags: (.*)\))$/.exec(rest);
    const tags = tagged ? (tagged[2] ?? tagged[3] ?? '').split(/[、,]\s*/) : [];
    return [{ content: tagged ? tagged[1]! : rest, labels: [m[1] ?? '', ...tags].join(' ').trim().toLowerCase() }];
  });
}

/** The user's own words said back to them: 「我喜欢…」 → 「你喜欢…」, "I like…" → "you like…". */
export function toSecondPerson(text: string, lang: Lang): string {
  if (lang === 'zh' || /[\u4e00-\u9fff]/.test(text)) return text.replace(/我们/g, '你们').replace(/我/g, '你');
  return text
    .replace(/\bI am\b/g, 'you are')
    .replace(/\bI'm\b/g, "you're")
    .replace(/\bI was\b/g, 'you were')
    .replace(/\bI\b/g, 'you')
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bmine\b/gi, 'yours')
    .replace(/\bme\b/gi, 'you');
}

const sentence = (text: string, lang: Lang) =>
  /[。.!！?？]$/.test(text) ? text : `${text}${lang === 'zh' ? '。' : '.'}`;

/** The name a memory holds, when it is one of 「我叫…」 "my name is …". */
function nameIn(memory: FoundMemory): string | undefined {
  const m = NAME_SET.exec(memory.content);
  return m ? nameFrom(memory.content.slice(m.index + m[0].length)) : undefined;
}

export function nameAnswer(lang: Lang, found: FoundMemory[]): string {
  const tagged = found.filter((m) => /\bname\b|名字/.test(m.labels));
  for (const m of [...tagged, ...found]) {
    const name = nameIn(m);
    if (name) return say(lang, `你叫${name}。`, `Your name is ${name}.`);
  }
  return say(
    lang,
    '你还没告诉我你的名字呢。说「我叫……」，我就会记住。',
    `You haven't told me your name yet. Say "my name is …" and I'll remember it.`,
  );
}

/** At most this many memories are said; the rest are in /memory and the web app. */
const SAID = 3;

export function searchAnswer(lang: Lang, output: string, userText: string): string {
  const found = foundIn(output);
  if (NAME_RECALL.test(userText)) return nameAnswer(lang, found);
  if (!found.length) {
    return say(
      lang,
      '我没有记下和这个有关的内容。想让我记住什么，可以说「记住：……」。',
      'I have nothing saved about that. To have me keep something, say "remember that …".',
    );
  }
  const said = found.slice(0, SAID).map((m) => sentence(toSecondPerson(m.content, lang), lang));
  if (said.length === 1) return say(lang, `我记得：${said[0]}`, `I remember: ${said[0]}`);
  return [say(lang, '我记得这些：', 'Here is what I remember:'), ...said.map((s) => `- ${s}`)].join('\n');
}

export function saveAnswer(lang: Lang, content: string, tags: unknown): string {
  if (Array.isArray(tags) && tags.includes('name')) {
    const name = nameIn({ content, labels: '' });
    if (name)
      return say(
        lang,
        `好的，${name}，我记住你的名字了。有什么可以帮你的？`,
        `Nice to meet you, ${name}! I'll remember your name.`,
      );
  }
  return say(
    lang,
    `好的，我记住了：${sentence(toSecondPerson(content, lang), lang)}`,
    `Got it, I'll remember: ${sentence(toSecondPerson(content, lang), lang)}`,
  );
}
