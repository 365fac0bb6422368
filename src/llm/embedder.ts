/** Turns texts into vectors: an OpenAI-compatible `/embeddings` endpoint, or a local model. */
export interface Embedder {
  kind: 'remote' | 'local';
  model: string;
  /** One vector per text, in order. Rejects with an error whose message a user can read. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
