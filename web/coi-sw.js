// The page's own cross-origin isolation, for hosts that cannot send headers (a university web space,
// GitHub Pages): the threaded build needs SharedArrayBuffer, which a browser gives only to a page
// served with COOP: same-origin and COEP: require-corp. Registered by index.html, this worker answers
// every request of the site with the response the host gave plus those two headers (and CORP, so the
// site's own files pass require-corp); index.html then reloads once, under its control.
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // A request the worker may not replay (a cross-origin "only-if-cached" one) goes to the network as is.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  // Only the site's own files: another origin's response cannot be given new headers honestly.
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fetch(request).then((response) => {
    if (response.status === 0 || response.type === 'opaque') return response;
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }));
});
