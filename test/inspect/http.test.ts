import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { cookieName } from "../../src/inspect/entry.js";
import { servePage, type PageServer } from "../../src/inspect/http.js";

const TOKEN = "t0ken";
let server: PageServer | undefined;
let warnings: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  warnings = [];
});

async function serve(host: string): Promise<{ origin: string; port: number }> {
  server = await servePage({
    host,
    port: 0,
    token: TOKEN,
    act: () => Promise.resolve({ ok: true }),
    subscribe: (res) => res.end(),
    warn: (message) => warnings.push(message),
  });
  return { origin: server.origin, port: Number(new URL(server.origin).port) };
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** A GET through the loopback interface, with the headers given. */
function fetchRaw(
  port: number,
  path: string,
  headers: Record<string, string>,
  connect = "127.0.0.1",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: connect, port, path, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A GET of the page with the token's cookie, with the Host and Origin given. */
async function get(
  port: number,
  headers: Record<string, string>,
  connect = "127.0.0.1",
): Promise<number> {
  const cookie = `${cookieName(port)}=${TOKEN}`;
  return (await fetchRaw(port, "/", { ...headers, cookie }, connect)).status;
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

describe("the way in", () => {
  it("a one-time link sets the token's HttpOnly SameSite=Strict cookie once and drops the code from the address", async () => {
    const { port } = await serve("127.0.0.1");
    const link = new URL(server?.link() ?? "");
    expect(link.search).toMatch(/^\?code=[A-Za-z0-9_-]{20,}$/);
    expect(link.href).not.toContain(TOKEN);
    const host = { host: `127.0.0.1:${port}` };
    const entered = await fetchRaw(port, link.pathname + link.search, host);
    expect(entered.status).toBe(303);
    expect(entered.headers.location).toBe("/");
    expect(entered.headers["set-cookie"]).toEqual([
      `${cookieName(port)}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
    // Dead after its first use, and the refusal is said on stderr.
    expect((await fetchRaw(port, link.pathname + link.search, host)).status).toBe(401);
    expect(warnings).toEqual(["hookgate inspect: a second use of a one-time link was refused"]);
    // The browser that used it may reload the first address.
    const reload = await fetchRaw(port, link.pathname + link.search, {
      ...host,
      cookie: `${cookieName(port)}=${TOKEN}`,
    });
    expect(reload.status).toBe(303);
  });

  it("nothing but the cookie lets a request in: not the token in the query or a header, nor a cookie of another port", async () => {
    const { port } = await serve("127.0.0.1");
    const host = { host: `127.0.0.1:${port}` };
    for (const path of ["/", "/app.js", "/events"]) {
      expect((await fetchRaw(port, `${path}?token=${TOKEN}`, host)).status).toBe(401);
      expect((await fetchRaw(port, path, { ...host, "x-hookgate-token": TOKEN })).status).toBe(401);
      const other = { ...host, cookie: `${cookieName(port + 1)}=${TOKEN}` };
      expect((await fetchRaw(port, path, other)).status).toBe(401);
    }
    expect(await get(port, host)).toBe(200);
    const cookie = `${cookieName(port)}=${TOKEN}`;
    expect((await fetchRaw(port, "/app.js", { ...host, cookie })).status).toBe(200);
  });
});
