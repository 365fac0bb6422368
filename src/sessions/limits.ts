/** The longest message a turn takes, in characters; hosts fit what they send to it (piped input, uploads). */
export const MAX_MESSAGE_CHARS = 100_000;
