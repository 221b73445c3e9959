// Bootstrap and routing: fetch the CSRF cookie, ask who is signed in, then show the sign-in pages or
// the dashboard for the current path.

import "./styles/index.css";
import { createApiClient } from "./api/client";
import { ApiError } from "./api/errors";
import type { User } from "./api/types";
import { App } from "./app";
import { h, replaceChildren } from "./dom";
import { renderAuthPage } from "./panels/auth";
import { brandMark } from "./panels/brand";
import { renderShareLinkPage } from "./panels/sharelink";
import { Router, routePath, safeNext, type Route } from "./router";
import { Store, initialAppState, type AppState } from "./state";
import { applyTheme, browserStorage, loadTheme } from "./theme";

applyTheme(loadTheme(browserStorage()), document.documentElement, browserStorage());
const root = mountPoint();
const api = createApiClient();
const store = new Store<AppState>(initialAppState);
const router = new Router();
let app: App | null = null;

function mountPoint(): HTMLElement {
  const el = document.getElementById("app");
  if (!el) throw new Error("index.html has no #app element");
  return el;
}

function unmountApp(): void {
  app?.destroy();
  app = null;
}

function signedOut(): void {
  unmountApp();
  store.set(initialAppState);
  // Come back here after signing in (only dashboard pages qualify; "/" is where sign-in lands anyway).
  const here = location.pathname + location.search;
  const next = here === "/" ? null : safeNext(here);
  router.navigate(routePath({ name: "login", next }), { replace: true });
}

async function signOut(): Promise<void> {
  try {
    await api.logout();
  } finally {
    unmountApp();
    store.set(initialAppState);
    router.navigate("/login");
  }
}

function onAuthenticated(user: User, next: string | null): void {
  store.update((s) => ({ ...s, user }));
  router.navigate(next ?? "/", { replace: true });
}

function showRoute(route: Route): void {
  const { user } = store.get();
  if (route.name === "login" || route.name === "signup") {
    if (user) {
      router.navigate(route.next ?? "/", { replace: true });
      return;
    }
    unmountApp();
    renderAuthPage(root, { mode: route.name, api, next: route.next, onAuthenticated });
    return;
  }
  if (!user) {
    signedOut();
    return;
  }
  if (route.name === "not-found") {
    router.navigate("/", { replace: true });
    return;
  }
  if (route.name === "share") {
    unmountApp();
    renderShareLinkPage(root, {
      api,
      token: route.token,
      user,
      onOpen: (conversation) => router.navigate(`/c/${conversation.id}`, { replace: true }),
    });
    return;
  }
  if (!app) {
    app = new App({
      api,
      store,
      navigate: (path, options) => router.navigate(path, options),
      onSignOut: signOut,
      onSignedOut: signedOut,
    });
    replaceChildren(root, app.el);
  }
  app.show(route);
}

function showStartupError(error: unknown): void {
  replaceChildren(
    root,
    h(
      "div",
      { class: "startup" },
      brandMark(40),
      h("h1", null, "Hive can't reach its server"),
      h("p", null, error instanceof Error ? error.message : String(error)),
      h("button", { class: "btn btn-primary", type: "button", onclick: () => location.reload() }, "Try again"),
    ),
  );
}

async function bootstrap(): Promise<void> {
  replaceChildren(root, h("div", { class: "startup" }, brandMark(40), h("span", { class: "spinner" })));
  let user: User | null = null;
  try {
    await api.csrf();
    user = await api.me();
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 403)) {
      showStartupError(error);
      return;
    }
  }
  store.update((s) => ({ ...s, user }));
  router.start(showRoute);
}

void bootstrap();
