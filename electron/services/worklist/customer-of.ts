/**
 * Names the customer a capacity policy belongs to, from its linked account.
 * The customer book answers it (electron/services/customers): asked once per
 * worklist answer or calendar, so every row of one answer is named by the
 * same book. Null when the account belongs to no customer.
 */
export type CustomerOfPolicy = (policy: { readonly account: string | null }) => string | null;

/** Where a worklist or calendar gets its namer: the book as it is at the moment of the question. */
export type CustomerNamer = () => Promise<CustomerOfPolicy>;

/** No book to ask (tests of the worklist alone): no policy has a customer. */
export const noCustomers: CustomerNamer = () => Promise.resolve(() => null);
