// Signing up, in and out, and the API token.

import type { Request } from "../http";
import type { Credentials, User } from "../types";

export type AuthApi = ReturnType<typeof authApi>;

export function authApi(request: Request) {
  return {
    csrf(): Promise<void> {
      return request<undefined>("GET", "/auth/csrf/");
    },
    me(): Promise<User> {
      return request<User>("GET", "/auth/me/");
    },
    signup(credentials: Credentials): Promise<User> {
      return request<User>("POST", "/auth/signup/", credentials);
    },
    login(credentials: Credentials): Promise<User> {
      return request<User>("POST", "/auth/login/", credentials);
    },
    logout(): Promise<void> {
      return request<undefined>("POST", "/auth/logout/");
    },
    createToken(): Promise<{ token: string }> {
      return request<{ token: string }>("POST", "/auth/token/");
    },
    revokeToken(): Promise<void> {
      return request<undefined>("DELETE", "/auth/token/");
    },
  };
}
