import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium, installed by .ci/run (`apt-get install chromium`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const RESULTS = fileURLToPath(new URL('../test-results/', import.meta.url));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Whether the browser tests can run; under CI=true a missing Chromium is a failure, never a skip. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`Chromium is required under CI and is missing at ${CHROMIUM} (apt-get install chromium)`);
  return false;
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * Watches a page: console errors and uncaught exceptions are collected, except the browser's own
 * "Failed to load resource" lines while `expectHttpErrors` runs (steps that show an API error on purpose).
 */
export function watch(page: Page) {
  const errors: string[] = [];
  let allowHttp = false;
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (allowHttp && /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) return;
    errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return {
    errors,
    async expectHttpErrors<T>(fn: () => Promise<T>): Promise<T> {
      allowHttp = true;
      try {
        return await fn();
      } finally {
        // Console events arrive asynchronously: let the last ones land while still allowed.
        await page.waitForTimeout(150);
        allowHttp = false;
      }
    },
  };
}

/** Screenshots in test-results/, numbered in the order taken; returns the page's HTML for later checks. */
export function screenshots(page: Page) {
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  let n = 0;
  const taken: string[] = [];
  return {
    taken,
    async shot(name: string): Promise<void> {
      n += 1;
      const file = `${String(n).padStart(2, '0')}-${name}.png`;
      await page.screenshot({ path: RESULTS + file, fullPage: true });
      taken.push(file);
    },
  };
}

/**
 * The JSON editor (CodeMirror) labelled `name` inside `scope`: its text (the lines it shows: the
 * small documents of the tests are shown whole) and typing a new one.
 */
export function jsonEditor(scope: Page | Locator, name: string | RegExp) {
  const box = scope.getByRole('textbox', { name });
  // CodeMirror draws only the lines near the window: bring the editor's end into view (its text
  // is at most a few dozen lines here, all drawn then), and read two frames later, once drawn.
  const text = () =>
    box.evaluate(
      (el) =>
        new Promise<string>((resolve) => {
          el.scrollIntoView({ block: 'end' });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve((el as HTMLElement).innerText)));
        }),
    );
  return { box, text, fill: (t: string) => box.fill(t), waitFor: () => box.waitFor() };
}
