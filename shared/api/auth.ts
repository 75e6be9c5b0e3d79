import { z } from 'zod';

export const SignInRequest = z.object({
  username: z.string(),
  password: z.string(),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

export const AccessToken = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type AccessToken = z.infer<typeof AccessToken>;
