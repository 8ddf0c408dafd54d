// The console's build (docs/console.md "Build and serving"): served by admin-api under /console, so every asset
// URL starts with /console/static/ and carries a content hash. Nothing is inlined (no data: URLs, no inline
// script or style), so admin-api's strict Content-Security-Policy needs no 'unsafe-inline'.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'static', // /console/assets/… is the Assets page
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false, // scripts/bundle-size.cjs prints the gzipped total
  },
});
