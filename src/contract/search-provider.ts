/** The web search services web_search can ask (config's `web.search.provider`). */
export const SEARCH_PROVIDERS = ['searxng', 'brave', 'tavily', 'bing'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];
