/** A session as the store keeps it, and as the hosts list it with whether a turn runs in it. */
import { z } from 'zod';

/** A session's stored record. */
export const SessionRecord = z.object({
  id: z.string(),
  title: z.string().describe('Empty until the first message names it.'),
  createdAt: z.number().int().describe('Milliseconds since the epoch.'),
  updatedAt: z.number().int().describe('Last activity, milliseconds since the epoch.'),
  messageCount: z.number().int().describe('How many messages the user has sent in it.'),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

export const SessionStatus = z.enum(['busy', 'idle']).describe('`busy` while a turn runs.');
export type SessionStatus = z.infer<typeof SessionStatus>;

/** A session as the hosts show it. */
export const Session = SessionRecord.extend({ status: SessionStatus }).meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;

export const SessionList = z
  .object({ sessions: z.array(Session).describe('Most recently active first.') })
  .meta({ id: 'SessionList' });
export type SessionList = z.infer<typeof SessionList>;
