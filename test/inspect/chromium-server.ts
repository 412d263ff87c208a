// The run's one Chromium, in vitest's main process: launched when a browser file first asks for
// it, closed with the run. Used from test/global-setup.ts; the files reach it through
// browser-kit.ts.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserServer } from "playwright-core";

// Debian's chromium-headless-shell package (.ci/run installs it): Chromium's old headless mode,
// which runs the browser files for about a fifth less CPU than the full browser. Debian's
// chromium, the full browser, when only it is installed. No browser is downloaded from anywhere.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_CHROMIUM = "/usr/bin/chromium";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where a worker asks for the run's Chromium: a GET answers its WebSocket endpoint. */
    chromiumBroker: string;
  }
}

export interface ChromiumBroker {
  /** The address to `provide` to the files. */
  readonly url: string;
  /** Closes the address and, if it was launched, Chromium. */
  close(): Promise<void>;
}

/**
 * Serves the run's Chromium on a loopback address: the first GET launches it (a run without a
 * browser file never starts it, nor loads playwright-core here), every GET answers its
 * WebSocket endpoint, and the workers `connect` to it, each file in a browser context of its
 * own. One launch for the run, not one per worker (about 3.5 s of CPU each). Chromium is driven
 * through a pipe from this process, so it exits with it however the run ends.
 */
export async function serveChromium(): Promise<ChromiumBroker> {
  let launched: Promise<BrowserServer> | undefined;
  const path = `/${randomUUID()}`;
  const server = createServer((req, res) => {
    if (req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    const mine = (launched ??= launchChromium());
    mine.then(
      (browser) => res.end(browser.wsEndpoint()),
      (error: unknown) => {
        // A failed launch is not kept: the next file asks again and reports its own failure.
        if (launched === mine) launched = undefined;
        res.writeHead(500).end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await (await launched?.catch(() => undefined))?.close();
    },
  };
}

/** A missing browser fails the browser files rather than skipping them. */
async function launchChromium(): Promise<BrowserServer> {
  const executablePath = chromiumExecutable();
  const { chromium } = await import("playwright-core");
  // vitest's own signal handling ends the run; Chromium follows this process when it exits.
  return chromium.launchServer({
    executablePath,
    args: ["--no-sandbox"],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** HOOKGATE_CHROMIUM when set (and then only it), else the headless shell, else the full browser. */
function chromiumExecutable(): string {
  const chosen = process.env.HOOKGATE_CHROMIUM;
  if (chosen !== undefined) {
    if (!existsSync(chosen)) throw new Error(`HOOKGATE_CHROMIUM: ${chosen} is missing`);
    return chosen;
  }
  const found = [HEADLESS_SHELL, FULL_CHROMIUM].find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `neither ${HEADLESS_SHELL} nor ${FULL_CHROMIUM} is installed: ` +
        "apt-get install chromium-headless-shell, or set HOOKGATE_CHROMIUM",
    );
  }
  return found;
}
