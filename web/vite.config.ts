import { defineConfig } from "vite";

// `npm run dev` proxies the API and sockets to a `torite serve` on port 8080.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, assetsInlineLimit: 0 },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
});
