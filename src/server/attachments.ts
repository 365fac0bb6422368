import { z } from '@hono/zod-openapi';
import type { ServerDeps } from './deps.js';
import { ApiError } from './errors.js';
import { attachmentHeaders } from './file-types.js';
import { fileResponse } from './files.js';
import { endpoint, newSubApp } from './openapi.js';
import { openWorkspaceFile } from './workspace-files.js';

const AttachmentParams = z.object({
  id: z.string().min(1).max(200).describe('A session id, e.g. `ses_…`.'),
  partId: z.string().min(1).max(200).describe('A tool part id (`prt_…`) of that session, as GET …/messages lists it.'),
  index: z
    .string()
    .regex(/^\d{1,4}$/, 'a whole number')
    .transform(Number)
    .describe("The attachment's place in the part's `attachments`, from 0."),
});

/** One attachment of a stored tool call, with the same safe headers as a workspace file. */
export function attachmentRoutes({ app }: ServerDeps) {
  const api = newSubApp();
  const messages = app.store.messages;

  endpoint(
    api,
    {
      method: 'get',
      path: '/api/sessions/{id}/parts/{partId}/attachments/{index}',
      tag: 'sessions',
      summary: "A tool call's attachment",
      description:
        'The bytes of one attachment, stored with the call or kept as a workspace file. The declared MIME type is sent only when it is an image, a PDF or text ' +
        '(text always as `text/plain; charset=utf-8`); anything else is `application/octet-stream` with `content-disposition: attachment`. ' +
        'Every answer carries `content-security-policy: sandbox; …` and `x-content-type-options: nosniff`. HEAD gives the headers alone.',
      params: AttachmentParams,
      responses: { 200: { description: 'The attachment.', file: true } },
      errors: [400, 403, 404],
      errorText: { 404: 'No such session, part or attachment in it, or its workspace file is gone.' },
    },
    async (c, { params }) => {
      const { id, partId, index } = params;
      const attachment = messages.partInSession(id, partId) ? messages.attachment(partId, index) : undefined;
      if (!attachment)
        throw new ApiError(
          404,
          'not_found',
          `Session "${id}" has no part "${partId}" with an attachment ${index}. GET /api/sessions/${id}/messages lists them.`,
        );
      if ('path' in attachment) {
        // A workspace file may have changed or gone since the call; it is read as it is now, through the sandbox.
        const file = await openWorkspaceFile(app.workspace, attachment.path, 'en');
        return fileResponse(c, file, attachmentHeaders(attachment.name, attachment.mimeType, file.info.size));
      }
      const bytes = Buffer.from(attachment.data, 'base64');
      const headers = attachmentHeaders(attachment.name, attachment.mimeType, bytes.length);
      return new Response(c.req.method === 'HEAD' ? null : bytes, { status: 200, headers });
    },
  );
  return api;
}
