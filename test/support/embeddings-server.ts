/**
 * A local server speaking the OpenAI `/embeddings` wire format, for tests: real `node:http` on
 * 127.0.0.1, port 0. Its vectors are deterministic and mean something: a text is the sum of the
 * concepts it mentions (a small bilingual lexicon: 过敏, allergic and sick are one concept), plus a
 * little of each of its words, so 「我对什么过敏」 lands near 「用户对花生过敏」 and unrelated texts
 * land far apart. A model's name picks its dimension (`…-32` has 32) and seeds its directions.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

const DEFAULT_DIMS = 64;
const WORD_WEIGHT = 0.15;

/** Concepts and the words (Chinese and English) that mention them. */
const CONCEPTS: Record<string, string[]> = {
  allergy: [
    '过敏',
    '花生',
    '海鲜',
    'allergic',
    'allergy',
    'allergies',
    'peanut',
    'peanuts',
    'sick',
    'reaction',
    'shellfish',
  ],
  drink: ['咖啡', '喝', '茶', '饮料', 'coffee', 'espresso', 'latte', 'tea', 'drink', 'beverage', 'caffeine'],
  pet: ['猫', '狗', '宠物', 'cat', 'kitten', 'dog', 'puppy', 'pet', 'pets'],
  travel: ['旅行', '机票', '出差', 'travel', 'trip', 'flight', 'vacation', 'journey'],
  music: ['音乐', '钢琴', '吉他', 'music', 'piano', 'guitar', 'song', 'songs', 'instrument'],
  family: ['孩子', '女儿', '儿子', 'daughter', 'son', 'kid', 'kids', 'child', 'children'],
};

export interface EmbeddingsRequest {
  headers: IncomingHttpHeaders;
  body: { model: string; input: string | string[] };
}

export interface EmbeddingsServer {
  url: string;
  requests: EmbeddingsRequest[];
  /** Answers every request with this status (500, 401…) until set back to undefined. */
  failWith?: number;
  /** Waits this long before answering. */
  delayMs: number;
  /** How many texts were embedded, all requests together. */
  texts(): number;
  close(): Promise<void>;
}

function unit(seed: string, dims: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < dims; i++) {
    const h = createHash('sha256').update(`${seed}:${i}`).digest();
    for (let j = 0; j + 1 < h.length && out.length < dims; j += 2) out.push(h.readInt16LE(j) / 32768);
  }
  const n = Math.hypot(...out) || 1;
  return out.map((x) => x / n);
}

const dimsOf = (model: string) => Number(/-(\d+)$/.exec(model)?.[1] ?? DEFAULT_DIMS);

/** The vector a model gives a text. */
export function embedText(text: string, model: string): number[] {
  const dims = dimsOf(model);
  const v = new Array<number>(dims).fill(0);
  const add = (seed: string, w: number) => unit(`${model}/${seed}`, dims).forEach((x, i) => (v[i] += w * x));
  const lower = text.toLowerCase();
  const words: string[] = lower.match(/[a-z]+|[\u3400-\u9fff]/g) ?? [];
  for (const [concept, cues] of Object.entries(CONCEPTS)) {
    if (cues.some((c) => (/^[a-z]+$/.test(c) ? words.includes(c) : lower.includes(c)))) add(concept, 1);
  }
  for (const w of words) add(`w:${w}`, WORD_WEIGHT);
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  let embedded = 0;
  const state = { requests: [] as EmbeddingsRequest[], failWith: undefined as number | undefined, delayMs: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as EmbeddingsRequest['body'];
      state.requests.push({ headers: req.headers, body });
      const answer = () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
          res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        if (state.failWith) {
          res
            .writeHead(state.failWith, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
          return;
        }
        const input = Array.isArray(body.input) ? body.input : [body.input];
        embedded += input.length;
        const data = input.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t, body.model) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            object: 'list',
            data,
            model: body.model,
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          }),
        );
      };
      if (state.delayMs > 0) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    texts: () => embedded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
