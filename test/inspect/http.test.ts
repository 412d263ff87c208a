import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { servePage, type PageServer } from "../../src/inspect/http.js";

const TOKEN = "t0ken";
let server: PageServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(host: string): Promise<{ origin: string; port: number }> {
  server = await servePage({
    host,
    port: 0,
    token: TOKEN,
    act: () => Promise.resolve({ ok: true }),
    subscribe: (res) => res.end(),
    warn: () => {},
  });
  return { origin: server.origin, port: Number(new URL(server.origin).port) };
}

/** A GET of the page through the loopback interface, with the Host and Origin given. */
function get(
  port: number,
  headers: Record<string, string>,
  connect = "127.0.0.1",
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: connect, port, path: `/?token=${TOKEN}`, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

/** An IPv4 address of this machine other than loopback, if it has one. */
function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((i) => i.family === "IPv4" && !i.internal)?.address;
}

describe("the inspector's own address", () => {
  it("bound to 0.0.0.0: prints a loopback address, answers to the loopback names and the machine's addresses, refuses others", async () => {
    const { origin, port } = await serve("0.0.0.0");
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    for (const host of ["127.0.0.1", "localhost", "LOCALHOST"]) {
      expect(await get(port, { host: `${host}:${port}` })).toBe(200);
    }
    const lan = lanAddress();
    if (lan !== undefined) {
      expect(await get(port, { host: `${lan}:${port}`, origin: `http://${lan}:${port}` })).toBe(
        200,
      );
    }
    // DNS rebinding: a foreign name that resolves here is still refused, as is its origin.
    expect(await get(port, { host: `evil.example:${port}` })).toBe(403);
    expect(await get(port, { host: `0.0.0.0:${port}` })).toBe(200);
    expect(await get(port, { host: `127.0.0.1:${port}`, origin: "http://evil.example" })).toBe(403);
    expect(
      await get(port, { host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` }),
    ).toBe(403);
    expect(await get(port, { host: `127.0.0.1:${port + 1}` })).toBe(403);
  });

  it("bound to localhost: prints it, and answers to 127.0.0.1 too", async () => {
    const { origin, port } = await serve("localhost");
    expect(origin).toBe(`http://localhost:${port}`);
    // Through whichever loopback address localhost is bound to here.
    expect(await get(port, { host: `localhost:${port}` }, "localhost")).toBe(200);
    const numeric = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
    expect(await get(port, numeric, "localhost")).toBe(200);
    expect(await get(port, { host: `evil.example:${port}` }, "localhost")).toBe(403);
  });

  it("bound to 127.0.0.1 (the default): answers to localhost too, never to a foreign name", async () => {
    const { origin, port } = await serve("127.0.0.1");
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    expect(await get(port, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(
      200,
    );
    expect(await get(port, { host: `evil.example:${port}` })).toBe(403);
  });
});
