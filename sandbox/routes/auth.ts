import { MESSAGE, TOKEN_LIFETIME_SECONDS } from '../../shared/api/contract-choices.js';
import type { AccessToken } from '../../shared/api/auth.js';
import { SignInRequest } from '../../shared/api/auth.js';
import { requireUser, type Handler } from '../context.js';
import { parseJson } from '../http/body.js';
import { ApiError } from '../http/envelope.js';
import { json } from '../http/reply.js';

export const signIn: Handler = async (req, services) => {
  const parsed = SignInRequest.safeParse(parseJson(req.body));
  // A missing, empty or non-text credential is "required" in the contract's words.
  if (!parsed.success || parsed.data.username.trim() === '' || parsed.data.password === '')
    throw new ApiError(400, MESSAGE.credentialsRequired);
  const user = await services.users.authenticate(parsed.data.username, parsed.data.password);
  if (!user) throw new ApiError(401, MESSAGE.invalidCredentials);
  const body: AccessToken = {
    access_token: services.jwt.sign(user.username, Math.floor(req.nowMs / 1000), TOKEN_LIFETIME_SECONDS),
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
  };
  return json(200, body);
};

export const linkedAccounts: Handler = (req, services) => json(200, services.store.linkedAccountsOf(requireUser(req)));
