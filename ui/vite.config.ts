import { defineConfig } from "vite";

// Everything is bundled into dist/ and embedded in the executable; nothing is fetched at
// run time. Relative base so the files resolve under Tauri's own protocol.
export default defineConfig({
  base: "./",
  clearScreen: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari15",
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
});
