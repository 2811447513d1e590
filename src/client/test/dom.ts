// A browser document for component tests, in the Node environment the server code needs (vitest's jsdom environment
// swaps Node's URL and import.meta.url for browser ones, which the server's migrations cannot use). Import first.
import 'global-jsdom/register';

// global-jsdom keeps Node's own globals; the DOM's events must be jsdom's, or jsdom refuses to dispatch them
// (Radix dispatches `new CustomEvent(...)` on mount). Node's fetch and AbortSignal stay Node's.
const view = globalThis.window as unknown as Record<string, unknown>;
for (const name of Object.getOwnPropertyNames(view)) {
  if (/^[A-Z]\w*Event$/.test(name)) Object.defineProperty(globalThis, name, { value: view[name], configurable: true, writable: true });
}

// Window methods live on its prototype, which global-jsdom does not copy (the router listens on the window).
for (const name of ['addEventListener', 'removeEventListener', 'dispatchEvent'] as const) {
  Object.defineProperty(globalThis, name, { value: window[name].bind(window), configurable: true, writable: true });
}
