/** What a handler answers: a status and the JSON of the body, as text or already encoded. */
export interface Reply {
  readonly status: number;
  readonly json: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** Called once the body's bytes are no longer needed (written, or the client is gone). */
  readonly release?: () => void;
}

export function json(status: number, body: unknown): Reply {
  return { status, json: JSON.stringify(body) };
}
