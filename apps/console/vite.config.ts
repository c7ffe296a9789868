// Builds the console to static files under dist/, served by the edge at /console on both listeners.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  resolve: {
    // The contracts' ES sources rather than their CommonJS build: zod and the schemas are then tree-shaken
    // (the CommonJS build drags in all of zod, every locale included).
    alias: {
      '@gateway/contracts/console': fileURLToPath(new URL('../../packages/contracts/src/console/index.ts', import.meta.url)),
      '@gateway/contracts/password': fileURLToPath(new URL('../../packages/contracts/src/password/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // React, Mantine and TanStack, which every page needs, are one chunk cached apart from the pages.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|@mantine|@floating-ui|@tanstack)[\\/]/ }] },
      },
    },
  },
});
