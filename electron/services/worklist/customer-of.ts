/**
 * Names the customer a capacity policy belongs to. The customer book (the
 * account manager's own list of customers and their linked accounts) will
 * answer this; until it does, a policy's customer is its linked account's
 * name, which is what the service says about ownership.
 */
export type CustomerOfPolicy = (policy: { readonly account: string | null }) => string | null;

export const customerByLinkedAccount: CustomerOfPolicy = ({ account }) => (account && account.trim() ? account : null);
