import { describe, expect, it } from "vitest";
import { createApiClient } from "./client";
import { ApiError, parseErrorBody } from "./errors";
import { readCookie } from "./http";

function neverResolves(): never {
  throw new Error("expected the request to fail");
}

function fakeFetch(status: number, body: unknown, contentType = "application/json") {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, headers: { "Content-Type": contentType } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe("readCookie", () => {
  it("finds one cookie among several", () => {
    expect(readCookie("sessionid=abc; csrftoken=t%2Bk; other=1", "csrftoken")).toBe("t+k");
    expect(readCookie("sessionid=abc", "csrftoken")).toBeNull();
  });
});

describe("errors", () => {
  it("reads {detail} and field errors", () => {
    expect(parseErrorBody({ detail: "Invalid username or password." })).toEqual({
      detail: "Invalid username or password.",
      fieldErrors: {},
    });
    expect(parseErrorBody({ username: ["A user with that username already exists."], password: "Too short." })).toEqual(
      {
        detail: null,
        fieldErrors: { username: ["A user with that username already exists."], password: ["Too short."] },
      },
    );
  });

  it("lists every message a form should show", () => {
    const error = new ApiError(400, { username: ["Taken."], non_field_errors: ["Try again."] }, "400");
    expect(error.messages).toEqual(["Username: Taken.", "Try again."]);
    expect(error.message).toBe("Taken.");
    expect(new ApiError(500, null, "500 Internal Server Error").messages).toEqual(["500 Internal Server Error"]);
  });
});

describe("ApiClient", () => {
  it("sends the CSRF token and JSON on unsafe methods, with the session cookie", async () => {
    const { fetch, calls } = fakeFetch(201, { message: { id: 1 }, run: { id: 2 } });
    const api = createApiClient({ fetch, cookies: () => "csrftoken=tok123" });
    const result = await api.sendMessage(5, { content: "hello" });
    expect(result.run.id).toBe(2);
    const { url, init } = calls[0]!;
    expect(url).toBe("/api/conversations/5/messages/");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBe('{"content":"hello"}');
    expect(init.headers).toMatchObject({ "X-CSRFToken": "tok123", "Content-Type": "application/json" });
  });

  it("does not send the CSRF token on GET", async () => {
    const { fetch, calls } = fakeFetch(200, []);
    await createApiClient({ fetch, cookies: () => "csrftoken=tok123" }).listConversations();
    expect(calls[0]!.init.headers).not.toHaveProperty("X-CSRFToken");
  });

  it("turns 4xx answers into ApiError with the server's message", async () => {
    const { fetch } = fakeFetch(409, { detail: "A run is already active." });
    const error = await createApiClient({ fetch, cookies: () => "" }).sendMessage(1, { content: "x" }).then(neverResolves, (e: unknown) => e as ApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.messages).toEqual(["A run is already active."]);
  });

  it("handles 204 and a network failure", async () => {
    await expect(
      createApiClient({ fetch: fakeFetch(204, undefined).fetch, cookies: () => "" }).logout(),
    ).resolves.toBeUndefined();
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof globalThis.fetch;
    const error = await createApiClient({ fetch: failing, cookies: () => "" }).me().then(neverResolves, (e: unknown) => e as ApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
  });

  it("runs a browser action by hand", async () => {
    const { fetch, calls } = fakeFetch(202, { id: 9, status: "queued" });
    const api = createApiClient({ fetch, cookies: () => "csrftoken=tok" });
    const run = await api.runAction(3, { action: "navigate", arguments: { url: "https://example.com" } });
    expect(run.id).toBe(9);
    expect(calls[0]!.url).toBe("/api/conversations/3/actions/");
    expect(calls[0]!.init.body).toBe('{"action":"navigate","arguments":{"url":"https://example.com"}}');
    await api.runAction(3, { action: "go_back" });
    expect(calls[1]!.init.body).toBe('{"action":"go_back","arguments":{}}');
  });

  it("uploads a file as multipart form data with the CSRF token", async () => {
    const { fetch, calls } = fakeFetch(201, { id: 4, name: "cv.pdf", size: 3 });
    const api = createApiClient({ fetch, cookies: () => "csrftoken=tok" });
    const stored = await api.uploadFile(3, new Blob(["abc"], { type: "application/pdf" }), "cv.pdf");
    expect(stored).toEqual({ id: 4, name: "cv.pdf", size: 3 });
    const { url, init } = calls[0]!;
    expect(url).toBe("/api/conversations/3/files/");
    expect(init.method).toBe("POST");
    expect(init.headers).toMatchObject({ "X-CSRFToken": "tok" });
    // The browser writes the multipart Content-Type (with its boundary) itself.
    expect(init.headers).not.toHaveProperty("Content-Type");
    const form = init.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const file = form.get("file") as File;
    expect(file.name).toBe("cv.pdf");
    expect(await file.text()).toBe("abc");
  });

  it("sums up an error in one line for a notice", async () => {
    const invalid = new ApiError(
      400,
      {
        arguments: ["invalid arguments for navigate: 'url' is a required property", "parameters: url (string, required)"],
      },
      "400",
    );
    expect(invalid.summary).toBe(
      "Invalid arguments for navigate: 'url' is a required property · parameters: url (string, required)",
    );
    expect(new ApiError(409, { detail: "The agent is working." }, "409").summary).toBe("The agent is working.");
    expect(new ApiError(413, null, "413 Payload Too Large").summary).toBe("413 Payload Too Large");
  });
});

describe("ApiClient: models, confirmations, settings", () => {
  it("answers a confirmation", async () => {
    const { fetch, calls } = fakeFetch(200, { id: 3, status: "approved" });
    const answer = await createApiClient({ fetch, cookies: () => "csrftoken=t" }).answerConfirmation(3, true);
    expect(answer.status).toBe("approved");
    expect(calls[0]!.url).toBe("/api/confirmations/3/answer/");
    expect(calls[0]!.init.body).toBe('{"approve":true}');
  });

  it("surfaces a 409 with its detail", async () => {
    const { fetch } = fakeFetch(409, { detail: "This confirmation was already answered (approved)." });
    const error = await createApiClient({ fetch, cookies: () => "" }).answerConfirmation(3, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).summary).toBe("This confirmation was already answered (approved).");
  });

  it("removes a profile's key with an empty string, and tests a profile", async () => {
    const { fetch, calls } = fakeFetch(200, { ok: true, detail: "", latency_ms: 12 });
    const api = createApiClient({ fetch, cookies: () => "" });
    await api.updateModelProfile(4, { api_key: "" });
    await api.testModelProfile(4);
    expect(calls.map((c) => [c.init.method, c.url, c.init.body])).toEqual([
      ["PATCH", "/api/model-profiles/4/", '{"api_key":""}'],
      ["POST", "/api/model-profiles/4/test/", null],
    ]);
  });

  it("starts a conversation with its settings, and changes them", async () => {
    const { fetch, calls } = fakeFetch(200, { id: 1 });
    const api = createApiClient({ fetch, cookies: () => "" });
    await api.createConversation({ model_profile: 4, show_reasoning: false, confirm_mode: "confirm" });
    await api.createConversation("Trip");
    await api.updateConversation(1, { model_profile: null });
    expect(calls.map((c) => c.init.body)).toEqual([
      '{"model_profile":4,"show_reasoning":false,"confirm_mode":"confirm"}',
      '{"title":"Trip"}',
      '{"model_profile":null}',
    ]);
  });
});
