import { z } from 'zod';

export const LinkedAccount = z.object({
  accountId: z.string(),
  accountName: z.string(),
  provider: z.string(),
  status: z.string(),
  linkedAt: z.iso.datetime({ offset: true }),
});
export type LinkedAccount = z.infer<typeof LinkedAccount>;

export const LinkedAccountList = z.array(LinkedAccount);
export type LinkedAccountList = z.infer<typeof LinkedAccountList>;
