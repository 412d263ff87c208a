// The run's one Chromium, in vitest's main process: launched when a browser file first asks for
// it, closed with the run. Used from test/global-setup.ts; the files reach it through
// browser-kit.ts.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserServer } from "playwright-core";

// Debian's chromium package (.ci/run installs it); no browser is downloaded from anywhere.
const CHROMIUM = process.env.HOOKGATE_CHROMIUM ?? "/usr/bin/chromium";

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
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium, or set HOOKGATE_CHROMIUM`);
  }
  const { chromium } = await import("playwright-core");
  // vitest's own signal handling ends the run; Chromium follows this process when it exits.
  return chromium.launchServer({
    executablePath: CHROMIUM,
    args: ["--no-sandbox"],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
