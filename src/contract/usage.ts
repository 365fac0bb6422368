/** Tokens a model call or a whole turn used, as the model reported them: stored with the turn and shown by the hosts. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}
