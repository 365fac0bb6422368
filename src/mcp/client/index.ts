// What the manager loads when the first server connects: the SDK stays out of runs without MCP servers.
export { createServerConnection, type ServerConnection } from './connection.js';
export { serverTools } from './tools.js';
