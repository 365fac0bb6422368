/** What the browser tools say, in the turn's language. */
import { say, type Lang } from '../i18n.js';
import type { NetworkPolicyError } from '../net/policy.js';
import type { Refusal } from '../browser/proxy.js';
import type { PermissionRefusal } from '../contract/permission.js';

const OPT_IN_ZH = '网页工具只能访问公网地址；如需访问本机和内网，请设置 ZHIXING_ALLOW_PRIVATE_NETWORK=1。';

/** A refusal by the network policy, for the model and the user. */
export function policyText(lang: Lang, err: NetworkPolicyError | Refusal, url: string): string {
  if (lang === 'en') return err.message;
  const reason = 'reason' in err ? err.reason : 'address';
  if (reason === 'scheme') {
    let scheme: string;
    try {
      scheme = new URL(url).protocol;
    } catch {
      return `不是有效的网址：${url.slice(0, 200)}`;
    }
    return `只能打开 http 和 https 网址，不能打开 ${scheme}。`;
  }
  if (reason === 'resolve') return `找不到 ${url} 的服务器。`;
  if (reason === 'redirects') return `${url} 的重定向无法继续（${err.message}）。`;
  // The policy says which range in English (`127.0.0.1: it is a loopback address`): kept as the detail.
  const detail = err.message.replace(/^Refused to connect to /, '').replace(/\. Web tools reach[\s\S]*$/, '');
  return `拒绝访问 ${url}：它不是公网地址（${detail}）。${OPT_IN_ZH}`;
}

/** Requests of the page the policy stopped during an action: said outside the page's fence, by us. */
export function blockedNote(lang: Lang, refusals: Refusal[]): string {
  if (refusals.length === 0) return '';
  const shown = [...new Set(refusals.map((r) => r.url))].slice(0, 5).join(', ');
  return say(
    lang,
    `网络策略拦截了页面的 ${refusals.length} 个请求（${shown}）：它们指向本机或内网地址。如需允许，请设置 ZHIXING_ALLOW_PRIVATE_NETWORK=1。\n`,
    `The network policy blocked ${refusals.length} request(s) of the page (${shown}): they lead to this machine or a private network. Set ZHIXING_ALLOW_PRIVATE_NETWORK=1 to allow them.\n`,
  );
}

/** A browser call the permission layer refused. */
export function browserRefusedText(lang: Lang, what: string, refusal: PermissionRefusal | undefined): string {
  if (refusal === 'declined')
    return say(lang, `用户拒绝了浏览器操作：${what}。`, `The user declined the browser action: ${what}.`);
  if (refusal === 'unanswered') {
    return say(
      lang,
      `浏览器操作（${what}）需要用户批准，但没有人可以回答（没有终端），所以没有执行。可以在权限规则中允许 browser_*，或使用 --yes。`,
      `The browser action (${what}) needs the user's approval, and nobody was there to answer (no terminal); it was not done. Allow browser_* in the permission rules, or use --yes.`,
    );
  }
  if (refusal === 'needs-person') {
    return say(
      lang,
      `浏览器操作（${what}）只能由用户本人批准，--yes 不能代替，所以没有执行。`,
      `The browser action (${what}) needs the user's own approval; --yes does not give it, so it was not done.`,
    );
  }
  if (refusal === 'cancelled')
    return say(
      lang,
      `等待批准时回合被停止了，浏览器操作没有执行。`,
      `The turn was stopped while waiting for approval; the browser action was not done.`,
    );
  return say(
    lang,
    `浏览器操作（${what}）被权限设置拒绝了。`,
    `The browser action (${what}) was refused by the permission settings.`,
  );
}

export const noPageText = (lang: Lang): string =>
  say(
    lang,
    '还没有打开任何网页：先用 browser_navigate 打开一个网址。',
    'No page is open yet: open a URL with browser_navigate first.',
  );
