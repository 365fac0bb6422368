/** A file uploaded into the workspace, as POST /api/files answers. */
import { z } from 'zod';

export const Uploaded = z
  .object({
    path: z
      .string()
      .describe(
        'Where the file was saved, relative to the workspace: what the file tools take. Differs from the path asked for when that name was taken.',
      ),
    size: z.number().int().describe('In bytes.'),
    mimeType: z
      .string()
      .describe("From the name's extension (`text/html`, `image/png`); `application/octet-stream` when unknown."),
  })
  .meta({ id: 'Uploaded' });
export type Uploaded = z.infer<typeof Uploaded>;
