import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { canonicalCharset, decodePage, headerCharset, metaCharset } from './decode.js';

const TRAD =
  '知行合一是明代思想家王陽明提出的哲學理論，認為認識事物的道理與實行其事是密不可分的。他說：「知是行之始，行是知之成。」後世學者多有討論，影響遍及東亞各國的學術與教育。';
const KO =
  '지행합일은 명나라의 사상가 왕양명이 제창한 철학 이론으로, 앎과 행함은 분리될 수 없다는 주장이다. 이 사상은 조선의 학자들에게도 큰 영향을 주었으며 오늘날까지 교육과 윤리 논의에서 자주 인용된다.';
const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>t</title></head><body><p>${body}</p></body></html>`;

describe('decodePage', () => {
  it('detects Big5 and EUC-KR pages that declare nothing', async () => {
    const big5 = await decodePage(iconv.encode(page(TRAD.repeat(3)), 'big5'), 'text/html');
    expect(big5.charset).toBe('big5');
    expect(big5.source).toBe('detected');
    expect(big5.text).toContain(TRAD);
    const ko = await decodePage(iconv.encode(page(KO.repeat(3)), 'euc-kr'), 'text/html');
    expect(ko.charset).toBe('euc-kr');
    expect(ko.text).toContain(KO);
  });

  it('believes the header over the meta tag, and valid UTF-8 over either', async () => {
    const gbk = iconv.encode(page('中文内容', '<meta charset="big5">'), 'gbk');
    expect((await decodePage(gbk, 'text/html; charset=gbk')).text).toContain('中文内容');
    const utf8 = Buffer.from(page('中文内容', '<meta charset="gb2312">'));
    const d = await decodePage(utf8, 'text/html; charset=gb2312');
    expect(d).toMatchObject({ charset: 'utf-8', source: 'utf-8', declared: 'gb2312' });
    expect(d.text).toContain('中文内容');
  });

  it('detects a page that claims UTF-8 but is GBK, by header or by meta', async () => {
    const body = '今天北京天气晴朗，气温二十度。知行合一。';
    const byHeader = await decodePage(iconv.encode(page(body), 'gbk'), 'text/html; charset=utf-8');
    expect(byHeader).toMatchObject({ charset: 'gb18030', source: 'detected', declared: 'utf-8' });
    expect(byHeader.text).toContain(body);
    const byMeta = await decodePage(iconv.encode(page(body, '<meta charset="utf-8">'), 'gbk'), 'text/html');
    expect(byMeta).toMatchObject({ charset: 'gb18030', source: 'detected', declared: 'utf-8' });
    expect(byMeta.text).toContain(body);
    // Declared UTF-8 over plain ASCII stays as declared.
    expect(await decodePage(Buffer.from(page('plain', '<meta charset="utf-8">')), 'text/html')).toMatchObject({
      charset: 'utf-8',
      source: 'meta',
    });
  });

  it('reads short CJK pages that declare nothing in their own charset, not as Latin-1', async () => {
    const cases: Array<[string, string, string]> = [
      ['gbk', 'gb18030', '<html><title>你好</title><p>知行合一</p></html>'],
      ['gbk', 'gb18030', '<html><title>新闻</title><p>今天北京天气晴朗，气温二十度。</p></html>'],
      ['big5', 'big5', '<html><title>新聞</title><p>今天臺北天氣晴朗，氣溫二十度。</p></html>'],
      ['shift_jis', 'shift_jis', '<html><title>ニュース</title><p>今日の東京は晴れです。気温は二十度です。</p></html>'],
      ['euc-kr', 'euc-kr', '<html><title>뉴스</title><p>오늘 서울은 맑고 기온은 이십 도입니다.</p></html>'],
    ];
    for (const [enc, charset, text] of cases) {
      const d = await decodePage(iconv.encode(text, enc), 'text/html');
      expect([d.charset, d.text], text).toEqual([charset, text]);
    }
    // Latin text still reads as Latin.
    const latin = '<html><title>Café</title><p>Él está en la estación. Ça va très bien, merci. Größe</p></html>';
    expect((await decodePage(iconv.encode(latin, 'windows-1252'), 'text/html')).text).toBe(latin);
  });

  it('reads German, French and Spanish pages as Latin, declared nothing or falsely UTF-8, short or long', async () => {
    const samples = [
      '<p>Grüße aus München, schöne Straße</p>',
      '<p>Señor Muñoz, años</p>',
      '<p>Réseau élégant</p>',
      `<p>${'Die Bundesregierung hat am Mittwoch über die künftige Förderung der Städte beraten; Müller äußerte sich skeptisch. '.repeat(40)}</p>`,
    ];
    for (const text of samples) {
      const bytes = iconv.encode(`<!doctype html><html><body>${text}</body></html>`, 'windows-1252');
      for (const header of ['text/html', 'text/html; charset=UTF-8']) {
        const d = await decodePage(bytes, header);
        expect(d.text, `${text.slice(0, 40)} as ${header}`).toContain(text);
      }
      const meta = iconv.encode(
        `<!doctype html><html><head><meta charset="utf-8"></head><body>${text}</body></html>`,
        'windows-1252',
      );
      expect((await decodePage(meta, 'text/html')).text).toContain(text);
    }
  });

  it('reads Big5 bytes labelled GBK as Big5, and traditional characters really in GBK as GBK', async () => {
    const d = await decodePage(iconv.encode(page(TRAD.repeat(2), '<meta charset="gbk">'), 'big5'), 'text/html');
    expect(d).toMatchObject({ charset: 'big5', declared: 'gbk' });
    expect(d.text).toContain(TRAD);
    const gbk = await decodePage(iconv.encode(page(TRAD.repeat(2), '<meta charset="gbk">'), 'gbk'), 'text/html');
    expect(gbk).toMatchObject({ charset: 'gb18030', source: 'meta' });
    expect(gbk.text).toContain(TRAD);
  });

  it('reads a byte-order mark first', async () => {
    const d = await decodePage(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é')]),
      'text/html; charset=iso-8859-1',
    );
    expect(d).toMatchObject({ text: 'é', source: 'bom' });
  });

  it('keeps a UTF-8 page cut inside a character as UTF-8', async () => {
    const bytes = Buffer.from('知行合一');
    expect((await decodePage(bytes.subarray(0, bytes.length - 1))).charset).toBe('utf-8');
  });

  it('reads Latin-1 labels as windows-1252', async () => {
    expect((await decodePage(Buffer.from([0x93, 0x68, 0x69, 0x94]), 'text/plain; charset=ISO-8859-1')).text).toBe(
      '\u201chi\u201d',
    );
  });
});

describe('charset declarations', () => {
  it('finds them in headers and meta tags', () => {
    expect(headerCharset('text/html; charset="GBK"')).toBe('gbk');
    expect(headerCharset('text/html')).toBeUndefined();
    expect(
      metaCharset(Buffer.from('<head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head>')),
    ).toBe('gb2312');
    expect(metaCharset(Buffer.from("<meta charset='Shift_JIS'>"))).toBe('shift_jis');
    expect(metaCharset(Buffer.from('<meta name="description" content="no charset here">'))).toBeUndefined();
    expect(canonicalCharset('GB2312')).toBe('gb18030');
    expect(canonicalCharset('x-sjis')).toBe('shift_jis');
  });
});
