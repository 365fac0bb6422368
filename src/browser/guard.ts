/**
 * The network policy on a browser context, first line: every request the pages make is checked by
 * URL (scheme, IP literal in any spelling, and what its name resolves to) before it leaves, and
 * refused ones are aborted. The second line, the proxy, judges the address actually connected, which
 * this cannot: it runs before the browser's own DNS and never sees a redirect's later hops.
 */
import type { BrowserContext } from 'playwright-core';
import { checkUrlResolved, NetworkPolicyError, type NetworkPolicy } from '../net/policy.js';
import type { Refusal } from './proxy.js';

export async function guardContext(
  context: BrowserContext,
  policy: NetworkPolicy,
  onRefused: (refusal: Refusal) => void,
): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    try {
      await checkUrlResolved(url, policy);
    } catch (err) {
      const unresolved = err instanceof NetworkPolicyError && err.reason === 'resolve';
      if (!unresolved)
        onRefused({
          url,
          message: err instanceof Error ? err.message : String(err),
          subresource: !route.request().isNavigationRequest(),
        });
      await route.abort(unresolved ? 'namenotresolved' : 'blockedbyclient').catch(() => {});
      return;
    }
    // The page may have closed meanwhile: nothing left to continue.
    await route.continue().catch(() => {});
  });
}
