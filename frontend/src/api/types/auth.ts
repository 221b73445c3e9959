// Signing in (POST /api/auth/signup/, /api/auth/login/, GET /api/auth/me/).

import type { Id } from "./id";

export interface User {
  id: Id;
  username: string;
}

export interface Credentials {
  username: string;
  password: string;
}
