/**
 * Voice: push-to-talk through the Web Speech API's recognition, and replies read aloud with
 * speechSynthesis in the reply's own language. Both are offered only where the browser has them.
 */
import { ref } from 'vue';
import { locale } from './i18n';

interface Recognition extends EventTarget {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  start(): void;
  stop(): void;
  abort(): void;
  onresult:
    | ((e: {
        resultIndex: number;
        results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
      }) => void)
    | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
}
type RecognitionCtor = new () => Recognition;

const Ctor: RecognitionCtor | undefined =
  (window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor })
    .SpeechRecognition ?? (window as unknown as { webkitSpeechRecognition?: RecognitionCtor }).webkitSpeechRecognition;

export const canListen = Ctor !== undefined;
export const canSpeak =
  typeof window.speechSynthesis !== 'undefined' && typeof window.SpeechSynthesisUtterance !== 'undefined';

const SPEAK_KEY = 'zhixing.speak';
export const speaking = ref(canSpeak && localStorage.getItem(SPEAK_KEY) === '1');
export function setSpeaking(on: boolean): void {
  speaking.value = on;
  localStorage.setItem(SPEAK_KEY, on ? '1' : '0');
  if (!on && canSpeak) speechSynthesis.cancel();
}

export interface Listening {
  stop(): void;
}

/**
 * Starts listening; `onText` gets the whole transcript so far (final and interim), `onEnd` is told
 * when it stops, with an error when one stopped it.
 */
export function listen(
  lang: string,
  onText: (text: string) => void,
  onEnd: (error?: string) => void,
): Listening | undefined {
  if (!Ctor) return undefined;
  const rec = new Ctor();
  rec.lang = lang;
  rec.interimResults = true;
  rec.continuous = true;
  let finalText = '';
  let failed: string | undefined;
  rec.onresult = (e) => {
    let interim = '';
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const result = e.results[i]!;
      if (result.isFinal) finalText += result[0]!.transcript;
      else interim += result[0]!.transcript;
    }
    onText(finalText + interim);
  };
  rec.onerror = (e) => {
    if (e.error !== 'aborted' && e.error !== 'no-speech') failed = e.error;
  };
  rec.onend = () => onEnd(failed);
  try {
    rec.start();
  } catch (err) {
    onEnd(String(err));
    return undefined;
  }
  return { stop: () => rec.stop() };
}

/** Mostly Chinese characters: read in Chinese; otherwise English. Neither (`(3+5) × 2 = 16`): in `otherwise`, the app's language. */
export function replyLang(text: string, otherwise = 'en-US'): string {
  const han = (text.match(/[\u3400-\u9fff]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  if (han === 0 && latin === 0) return otherwise;
  return han > 0 && han * 2 >= latin / 2 ? 'zh-CN' : 'en-US';
}

/** What Markdown looks like read aloud: its words, not its symbols; code is left out. */
export function speakable(markdown: string): string {
  return (
    markdown
      .replace(/```[\s\S]*?```/g, ' ')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      // A star between numbers is a multiplication, read as one; other stars are emphasis, left out.
      .replace(/([\d)])\s*\*\s*(?=[\d(])/g, '$1 × ')
      .replace(/[#*_>~|]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

export function speak(text: string): void {
  if (!canSpeak || !speaking.value) return;
  const words = speakable(text);
  if (!words) return;
  speechSynthesis.cancel();
  const u = new SpeechSynthesisUtterance(words);
  u.lang = replyLang(words, locale.value === 'zh' ? 'zh-CN' : 'en-US');
  const voice = speechSynthesis
    .getVoices()
    .find((v) => v.lang.toLowerCase().startsWith(u.lang.slice(0, 2).toLowerCase()));
  if (voice) u.voice = voice;
  speechSynthesis.speak(u);
}
