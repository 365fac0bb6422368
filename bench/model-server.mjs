#!/usr/bin/env node
// A local model service speaking the OpenAI Chat Completions wire format, for the start-up benchmark.
// Answers every streamed chat request at once with a short reply, a title request with a title, and
// keeps connections alive as hosted providers do. Listens on 127.0.0.1 only; prints its base URL as
// one line, then serves until its standard input closes (so it never outlives the benchmark).
import { createServer } from 'node:http';

const REPLY = '(3+5)*2 = 16';
const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`;

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const request = JSON.parse(body);
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-bench',
          object: 'chat.completion',
          created: 0,
          model: 'bench',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Bench chat' }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }));
    res.write(chunk({ content: REPLY }));
    res.write(chunk({}, 'stop'));
    if (request.stream_options?.include_usage) res.write(usage);
    res.end('data: [DONE]\n\n');
  });
});
// A provider keeps an idle connection open for a while; a client that waits for it to close waits this long.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`);
});
process.stdin.on('end', () => process.exit(0)).resume();
