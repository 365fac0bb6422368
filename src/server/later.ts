import { laterEndpoint, newSubApp } from './openapi.js';

/** Routes of the contract the core does not back yet: documented, and answered with 501 until it does. */
export function laterRoutes() {
  const api = newSubApp();
  const memories = 'Long-term memories';
  laterEndpoint(api, { method: 'get', path: '/api/memories', tag: 'memories', summary: 'List or search memories (?session=ID&q=…)' }, memories);
  laterEndpoint(api, { method: 'patch', path: '/api/memories/{id}', tag: 'memories', summary: 'Edit a memory' }, memories);
  laterEndpoint(api, { method: 'delete', path: '/api/memories/{id}', tag: 'memories', summary: 'Delete a memory' }, memories);
  return api;
}
