import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// `npm run dev` runs Vite alone; the server (npm run serve, port 8787 by default) answers these.
const devServerOrigin = process.env.PACTA_DEV_SERVER ?? 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      // Our own worker (workers/sw.ts) for Web Push; vite-plugin-pwa injects the precache manifest.
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      // Never a silent reload that could lose a form: the update prompt asks first.
      registerType: 'prompt',
      injectRegister: null,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Pacta',
        short_name: 'Pacta',
        description:
          'The creator–brand sponsorship marketplace: brands publish paid deals, creators swipe and apply, and built-in escrow keeps every payment safe. Works offline.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        // The page's own theme-color (index.html, the warm theme's background), so the installed app's
        // title bar does not change colour once the page loads.
        theme_color: '#fbf7f2',
        background_color: '#fbf7f2',
        categories: ['business', 'productivity', 'social'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          {
            src: '/screenshots/wide.png',
            sizes: '1280x800',
            type: 'image/png',
            form_factor: 'wide',
            label: 'Pacta home: sponsorship deals with built-in escrow',
          },
          {
            src: '/screenshots/narrow.png',
            sizes: '750x1334',
            type: 'image/png',
            form_factor: 'narrow',
            label: 'Pacta on a phone',
          },
        ],
      },
      injectManifest: {
        // The whole app shell, lazy route chunks included, so every route opens offline after one visit.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2,webmanifest}'],
        globIgnores: ['screenshots/**'],
      },
    }),
  ],
  server: {
    proxy: Object.fromEntries(
      ['/auth/v1', '/sync/v1', '/api', '/storage/v1'].map((p) => [p, { target: devServerOrigin, changeOrigin: false }]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
