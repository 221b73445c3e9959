// History-API routing: /login, /signup, / (conversation list), /c/<id> (one conversation), /c/<id>/live (its live
// browser alone, in a window of its own), /settings, /share/<token> (a share link's page).

import type { Id } from "./api/types";

export type Route =
  | { name: "login"; next: string | null }
  | { name: "signup"; next: string | null }
  | { name: "home" }
  | { name: "conversation"; id: Id; popout?: boolean }
  | { name: "settings" }
  | { name: "share"; token: string }
  | { name: "not-found"; path: string };

export function parseRoute(pathname: string, search = ""): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  const next = safeNext(new URLSearchParams(search).get("next"));
  if (path === "/login") return { name: "login", next };
  if (path === "/signup") return { name: "signup", next };
  if (path === "/") return { name: "home" };
  if (path === "/settings") return { name: "settings" };
  const match = /^\/c\/(\d+)(\/live)?$/.exec(path);
  if (match) return match[2] ? { name: "conversation", id: Number(match[1]), popout: true } : { name: "conversation", id: Number(match[1]) };
  const share = /^\/share\/([A-Za-z0-9_-]+)$/.exec(path);
  if (share?.[1]) return { name: "share", token: share[1] };
  return { name: "not-found", path };
}

export function routePath(route: Route): string {
  switch (route.name) {
    case "login":
    case "signup":
      return `/${route.name}` + (route.next ? `?next=${encodeURIComponent(route.next)}` : "");
    case "home":
      return "/";
    case "conversation":
      return `/c/${route.id}${route.popout ? "/live" : ""}`;
    case "settings":
      return "/settings";
    case "share":
      return `/share/${route.token}`;
    case "not-found":
      return route.path;
  }
}

/** Only same-app paths are followed after signing in (no `//evil.example`, no other origins). */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith("/") || next.startsWith("//")) return null;
  const route = parseRoute(next.split("?")[0] ?? "/");
  return route.name === "home" || route.name === "conversation" || route.name === "settings" || route.name === "share"
    ? next
    : null;
}

export type RouteListener = (route: Route) => void;

export class Router {
  private listener: RouteListener | null = null;

  start(listener: RouteListener): void {
    this.listener = listener;
    window.addEventListener("popstate", () => this.emit());
    // Same-origin links marked data-link navigate without a page load.
    document.addEventListener("click", (event) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      ) {
        return;
      }
      const anchor = event.target instanceof Element ? event.target.closest("a[data-link]") : null;
      if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== location.origin) return;
      event.preventDefault();
      this.navigate(anchor.pathname + anchor.search);
    });
    this.emit();
  }

  current(): Route {
    return parseRoute(location.pathname, location.search);
  }

  navigate(path: string, { replace = false } = {}): void {
    if (path !== location.pathname + location.search) {
      if (replace) history.replaceState(null, "", path);
      else history.pushState(null, "", path);
    }
    this.emit();
  }

  private emit(): void {
    this.listener?.(this.current());
  }
}
