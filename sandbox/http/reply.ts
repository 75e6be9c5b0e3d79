/** What a handler answers: a status and the JSON text of the body. */
export interface Reply {
  readonly status: number;
  readonly json: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export function json(status: number, body: unknown): Reply {
  return { status, json: JSON.stringify(body) };
}
