/**
 * Part of devrites (`devrites doctor` runs it on the user's machine; the real-host tests share it).
 * Shared plumbing for the fake model servers: an in-process `node:http` server on 127.0.0.1 (ephemeral port),
 * a request log, body decoding, SSE framing and the per-scenario request budget.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as zlib from "node:zlib";

/** One logged HTTP request, whatever its route. */
export interface LoggedRequest {
  /** 1-based arrival order over all requests to this server. */
  seq: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` when there was no body or it was not JSON (see `rawBody`). */
  body: unknown;
  rawBody: string;
  /** How the fake answered: HTTP status and a short note (`sse`, `json`, `404`, `budget`, …). */
  status: number;
  note: string;
}

/** Default number of model requests a scenario may receive before the fake stops it. */
export const DEFAULT_BUDGET = 20;

export interface BudgetState {
  budget: number;
  /** Model requests received so far. */
  used: number;
  /** Everything that went wrong on the fake's side; a test asserts this is empty. */
  failures: string[];
}

export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v.join(", ");
  return v;
}

/** Decode a request body by its content-encoding; returns a text or an error note. */
export function decodeBody(buf: Buffer, encoding: string | undefined): { text: string } | { error: string } {
  const enc = (encoding ?? "identity").trim().toLowerCase();
  try {
    if (enc === "" || enc === "identity") return { text: buf.toString("utf8") };
    if (enc === "gzip" || enc === "x-gzip") return { text: zlib.gunzipSync(buf).toString("utf8") };
    if (enc === "deflate") return { text: zlib.inflateSync(buf).toString("utf8") };
    if (enc === "br") return { text: zlib.brotliDecompressSync(buf).toString("utf8") };
    if (enc === "zstd") {
      // newer Node only; looked up on the module object, not as a named import the bundlers would check
      const zstd = Reflect.get(zlib, "zstdDecompressSync") as ((b: Buffer) => Buffer) | undefined;
      if (zstd) return { text: zstd(buf).toString("utf8") };
      return { error: "content-encoding zstd cannot be decoded by this Node version" };
    }
    return { error: `unknown content-encoding ${enc}` };
  } catch (e) {
    return { error: `cannot decode ${enc} body: ${(e as Error).message}` };
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export interface IncomingRequest {
  method: string;
  url: string;
  /** Path without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
  /** Set when the body could not be decoded or parsed. */
  bodyError?: string;
}

/** What a route handler does with the response; it returns the log note. */
export type RouteHandler = (req: IncomingRequest, res: ServerResponse) => { status: number; note: string };

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export async function startServer(handle: RouteHandler, failures: string[]): Promise<RunningServer> {
  const requests: LoggedRequest[] = [];
  let seq = 0;
  const server = createServer((req, res) => {
    const n = ++seq;
    readAll(req)
      .then((buf) => {
        const decoded = decodeBody(buf, headerText(req.headers, "content-encoding"));
        let rawBody = "";
        let body: unknown;
        let bodyError: string | undefined;
        if ("error" in decoded) bodyError = decoded.error;
        else {
          rawBody = decoded.text;
          if (rawBody.length > 0) {
            try {
              body = JSON.parse(rawBody);
            } catch (e) {
              bodyError = `body is not JSON: ${(e as Error).message}`;
            }
          }
        }
        const url = req.url ?? "/";
        const incoming: IncomingRequest = {
          method: req.method ?? "GET",
          url,
          path: url.split("?")[0] ?? url,
          headers: req.headers,
          body,
          rawBody,
          ...(bodyError ? { bodyError } : {}),
        };
        let outcome: { status: number; note: string };
        try {
          outcome = handle(incoming, res);
        } catch (e) {
          failures.push(`fake server crashed on ${incoming.method} ${url}: ${(e as Error).stack ?? e}`);
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { type: "fake_error", message: String(e) } }));
          outcome = { status: 500, note: "crash" };
        }
        requests.push({
          seq: n,
          method: incoming.method,
          url,
          headers: req.headers,
          body,
          rawBody,
          status: outcome.status,
          note: outcome.note,
        });
      })
      .catch((e: unknown) => {
        failures.push(`fake server could not read a request: ${String(e)}`);
        if (!res.headersSent) res.writeHead(400);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Write a whole SSE stream at once: each frame `event: <type>` + `data: <json>`. */
export function writeSse(res: ServerResponse, frames: { event: string; data: unknown }[]): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const f of frames) res.write(`event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`);
  res.end();
}

export function writeJson(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(data));
}

/**
 * Count one model request against the budget. Returns false (and records a failure once) when the budget is
 * spent: the caller then answers with a final text so the host stops.
 */
export function spendBudget(state: BudgetState, what: string): boolean {
  state.used += 1;
  if (state.used <= state.budget) return true;
  if (state.used === state.budget + 1) {
    state.failures.push(
      `request budget of ${state.budget} model requests exhausted at ${what}: the scenario loops or needs a larger budget`,
    );
  }
  return false;
}

/**
 * One model request's reply: the scenario's answer while the budget lasts, else `fallback` with the text that
 * makes the host stop (the budget's failure recorded by `spendBudget`; a scenario that throws recorded here).
 */
export function scenarioReply<R>(
  budget: BudgetState,
  ask: () => R,
  fallback: (stopText: string) => R,
): { reply: R; outcome: "answered" | "budget" | "scenario error" } {
  if (!spendBudget(budget, `request ${budget.used + 1}`))
    return { reply: fallback("[fake] request budget exhausted; stopping."), outcome: "budget" };
  try {
    return { reply: ask(), outcome: "answered" };
  } catch (e) {
    budget.failures.push(`scenario threw: ${(e as Error).stack ?? String(e)}`);
    return { reply: fallback("[fake] scenario error; stopping."), outcome: "scenario error" };
  }
}

let idCounter = 0;
export function freshId(prefix: string): string {
  idCounter += 1;
  return `${prefix}${Date.now().toString(36)}${idCounter.toString(36).padStart(4, "0")}`;
}
