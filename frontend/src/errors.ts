import { ApiError } from "./api/errors";

/** What went wrong, in words a person can read: the server's summary, else the error's message. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.summary;
  return err instanceof Error ? err.message : String(err);
}

/** Every message of a refusal (one per invalid field), for a form's error list. */
export function errorMessages(err: unknown): string[] {
  return err instanceof ApiError ? err.messages : [String(err)];
}
