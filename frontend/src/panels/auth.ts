// Sign-in and sign-up pages. Errors from the API ({"detail"} or field errors) show above the button.

import type { ApiClient } from "../api/client";
import { ApiError } from "../api/errors";
import type { User } from "../api/types";
import { h, replaceChildren } from "../dom";
import { brandMark } from "./brand";

export type AuthMode = "login" | "signup";

export interface AuthPageOptions {
  mode: AuthMode;
  api: ApiClient;
  next: string | null;
  onAuthenticated: (user: User, next: string | null) => void;
}

const COPY: Record<AuthMode, { title: string; subtitle: string; submit: string; busy: string }> = {
  login: {
    title: "Sign in to Hive",
    subtitle: "Welcome back. Your agent and its browser are where you left them.",
    submit: "Sign in",
    busy: "Signing in…",
  },
  signup: {
    title: "Create your account",
    subtitle: "Get an AI agent with its own browser. Watch it work, take over any time.",
    submit: "Create account",
    busy: "Creating account…",
  },
};

export function renderAuthPage(root: HTMLElement, options: AuthPageOptions): void {
  const { mode, api } = options;
  const copy = COPY[mode];
  const query = options.next ? `?next=${encodeURIComponent(options.next)}` : "";

  const username = h("input", {
    id: "auth-username",
    name: "username",
    type: "text",
    autocomplete: "username",
    autocapitalize: "none",
    spellcheck: "false",
    maxlength: "150",
  });
  const password = h("input", {
    id: "auth-password",
    name: "password",
    type: "password",
    autocomplete: mode === "login" ? "current-password" : "new-password",
  });
  const error = h("div", { class: "form-error", "data-testid": "form-error", role: "alert", hidden: true });
  const submit = h("button", { class: "btn btn-primary btn-block", type: "submit" }, copy.submit);

  const showErrors = (messages: string[], fields: string[] = []): void => {
    replaceChildren(error, ...messages.map((m) => h("div", null, m)));
    error.hidden = messages.length === 0;
    username.setAttribute("aria-invalid", String(fields.includes("username")));
    password.setAttribute("aria-invalid", String(fields.includes("password")));
  };

  const form = h(
    "form",
    {
      class: "auth-form",
      novalidate: true,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const credentials = { username: username.value.trim(), password: password.value };
        const missing = (["username", "password"] as const).filter((f) => !credentials[f]);
        if (missing.length) {
          showErrors(["Enter your username and password."], [...missing]);
          (missing[0] === "username" ? username : password).focus();
          return;
        }
        showErrors([]);
        submit.disabled = true;
        submit.textContent = copy.busy;
        try {
          const user = mode === "login" ? await api.login(credentials) : await api.signup(credentials);
          options.onAuthenticated(user, options.next);
        } catch (err) {
          const apiError = err instanceof ApiError ? err : null;
          showErrors(apiError ? apiError.messages : [String(err)], apiError ? Object.keys(apiError.fieldErrors) : []);
          submit.disabled = false;
          submit.textContent = copy.submit;
          password.select();
        }
      },
    },
    h("label", { class: "field" }, h("span", { class: "field-label" }, "Username"), username),
    h(
      "label",
      { class: "field" },
      h("span", { class: "field-label" }, "Password"),
      password,
      mode === "signup" ? h("span", { class: "field-hint" }, "At least 8 characters; not too common.") : null,
    ),
    error,
    submit,
  );

  const switcher =
    mode === "login"
      ? h(
          "p",
          { class: "auth-switch" },
          "New to Hive? ",
          h("a", { href: `/signup${query}`, "data-link": true, "data-testid": "to-signup" }, "Create an account"),
        )
      : h(
          "p",
          { class: "auth-switch" },
          "Already have an account? ",
          h("a", { href: `/login${query}`, "data-link": true, "data-testid": "to-login" }, "Sign in"),
        );

  const card = h(
    "section",
    { class: "auth-card" },
    h("div", { class: "auth-brand" }, brandMark(32), h("span", null, "Hive")),
    h("h1", null, copy.title),
    h("p", { class: "auth-subtitle" }, copy.subtitle),
    form,
    switcher,
  );

  const aside = h(
    "aside",
    { class: "auth-aside", "aria-hidden": "true" },
    h(
      "div",
      { class: "auth-aside-inner" },
      h("p", { class: "auth-kicker" }, "Browser agents, hosted"),
      h("h2", null, "Chat with an agent that works in its own browser."),
      h(
        "ul",
        { class: "auth-points" },
        h("li", null, "Every step, observation and screenshot, as it happens"),
        h("li", null, "A live view of the page — take the controls any time"),
        h("li", null, "Bring any OpenAI-compatible model"),
      ),
    ),
  );

  replaceChildren(root, h("div", { class: "auth-page" }, h("main", { class: "auth-main" }, card), aside));
  document.title = `${copy.submit === "Sign in" ? "Sign in" : "Sign up"} · Hive`;
  username.focus();
}
