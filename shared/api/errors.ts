import { z } from 'zod';

/** The service's error envelope, exactly as every error body carries it. */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.object({
      timestamp: z.string(),
      description: z.string(),
    }),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
