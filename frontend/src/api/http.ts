// The one request helper every endpoint goes through: JSON in and out (or multipart for a file), Django's session
// cookie, X-CSRFToken (read from the csrftoken cookie) on unsafe methods, and a refusal as an ApiError.

import { ApiError } from "./errors";

/** Reads one cookie from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface HttpOptions {
  base?: string;
  fetch?: typeof fetch;
  cookies?: () => string;
}

/** Sends one request to the API and resolves its JSON answer (undefined for an empty one); rejects with ApiError. */
export type Request = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export function httpRequest(options: HttpOptions = {}): Request {
  const base = options.base ?? "/api";
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const cookies = options.cookies ?? (() => document.cookie);
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { Accept: "application/json" };
    // FormData goes as is: the browser sets the multipart Content-Type with its boundary.
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
    if (UNSAFE_METHODS.has(method)) {
      const token = readCookie(cookies(), "csrftoken");
      if (token) headers["X-CSRFToken"] = token;
    }
    let response: Response;
    try {
      response = await fetchImpl(base + path, {
        method,
        headers,
        credentials: "same-origin",
        body: body === undefined ? null : multipart ? body : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, null, "Cannot reach the server. Check your connection and try again.");
    }
    const payload = await readBody(response);
    if (!response.ok)
      throw new ApiError(response.status, payload, `${response.status} ${response.statusText || "error"}`);
    return payload as T;
  };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get("Content-Type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  // An HTML error page (e.g. Django's 500 page) is not worth showing verbatim.
  return type.includes("html") ? null : text;
}
