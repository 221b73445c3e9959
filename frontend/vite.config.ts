import { defineConfig } from "vitest/config";

// Django serves the built dashboard from frontend/dist/ at /static/ and answers every page path
// with dist/index.html. The dev server runs at / and forwards the API and websockets to Daphne.
export default defineConfig(({ command }) => ({
  base: command === "build" ? "/static/" : "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
      "/demo": "http://127.0.0.1:8000",
    },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
}));
