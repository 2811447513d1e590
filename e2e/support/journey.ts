// The frame every journey shares: the real app on a fresh database, one browser page, and the console errors
// seen on it. Call inside a describe block; the fields are set once beforeAll has run.
import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, watchConsole } from './browser';
import { startApp, type RunningApp } from './server';

export interface Journey {
  app: RunningApp;
  page: Page;
  consoleErrors: string[];
}

export interface JourneyOptions {
  /** Runs against the started app before the browser opens (accounts, data). */
  prepare?: (app: RunningApp) => Promise<void>;
  viewport?: { width: number; height: number };
  acceptDownloads?: boolean;
}

export function useJourney(options: JourneyOptions = {}): Journey {
  const journey = {} as Journey;
  let browser: Browser | undefined;
  beforeAll(async () => {
    journey.app = await startApp();
    await options.prepare?.(journey.app);
    browser = await launchBrowser();
    journey.page = await browser.newPage({
      locale: 'en-GB',
      ...(options.viewport ? { viewport: options.viewport } : {}),
      ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
    });
    journey.consoleErrors = watchConsole(journey.page);
  });
  afterAll(async () => {
    await browser?.close();
    await journey.app?.stop();
  });
  return journey;
}
