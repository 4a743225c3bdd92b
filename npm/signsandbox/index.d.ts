// Types of the signsandbox test helper (index.js).

/** Credentials and URLs of one world; its control calls act on it alone. */
export declare class World {
  /** The sandbox's base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The API's base URL (the SDKs' basePath / host): url + '/v3'. */
  readonly apiBaseUrl: string;
  /** The world's API key (HTTP basic user name, empty password). */
  readonly apiKey: string;
  readonly worldId: string;
  readonly accountId: string;
  readonly emailAddress: string;
  readonly clientId: string;
  readonly clientSecret: string;

  /** A control call (path below /_sandbox) with the world's key; throws SandboxError on a non-2xx. */
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  clock(): Promise<Clock>;
  /** The world's time. */
  now(): Promise<Date>;
  /** Moves the clock ('90s', '1h30m', seconds, a Date, or the raw body) and runs the jobs that fall due. */
  advance(by: string | number | Date | AdvanceBody): Promise<AdvanceResult>;

  /** Signer actions: each answers the signature request as GET shows it. */
  view(signatureId: string): Promise<SignatureRequest>;
  sign(signatureId: string, values?: Record<string, string | boolean>): Promise<SignatureRequest>;
  decline(signatureId: string, reason?: string): Promise<SignatureRequest>;
  reassign(signatureId: string, to: { name: string; emailAddress: string; reason?: string }): Promise<SignatureRequest>;
  bounce(signatureId: string): Promise<SignatureRequest>;

  /** Every e-mail of the outbox, oldest first. */
  emails(filters?: { to?: string; kind?: string; signature_request_id?: string }): Promise<Email[]>;
  /** Every event of the callback log, oldest first. */
  callbacks(filters?: {
    event_type?: string;
    object_id?: string;
    state?: string;
    account_id?: string;
    client_id?: string;
    url?: string;
  }): Promise<CallbackEvent[]>;
  /** Waits until every due callback attempt was made. */
  waitCallbacks(): Promise<any>;
  /** Back to the fixtures. */
  reset(): Promise<any>;
  /** PATCH the world's configuration, or GET it. */
  config(changes?: Record<string, unknown>): Promise<Record<string, any>>;
  /** A fresh world on the same sandbox (fake clock unless asked). */
  createWorld(options?: { clock?: 'fake' | 'real'; time?: string | Date; scenarios?: string[] }): Promise<World>;
  /** Deletes this world (not the default one). */
  delete(): Promise<any>;
}

/** A started signsandbox process; as a World, its default world. */
export declare class Sandbox extends World {
  readonly pid: number;
  /** What the process wrote to stderr lately. */
  stderr(): string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s); safe to call twice. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** 'fake' (default: starts at 2025-01-01T00:00:00Z, moves only with advance) or 'real'. */
  clock?: 'fake' | 'real';
  /** A fixed API key for the default world. */
  apiKey?: string;
  /** Ready scenario names or scenario files to load into the default world. */
  scenarios?: string[];
  /** Placeholder documents for file_urls instead of fetching them. */
  offline?: boolean;
  /** Require this admin token for worlds and control calls without a key. */
  adminToken?: string;
  /** More command-line flags. */
  args?: string[];
  /** More environment variables (the test's own SIGNSANDBOX_* are not passed on). */
  env?: Record<string, string>;
  /** The binary to run instead of the installed platform package's (or SIGNSANDBOX_BINARY). */
  binary?: string;
  /** Milliseconds to wait for the sandbox to be ready (default 20000). */
  startTimeout?: number;
  /** debug, info, warn (default) or error. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** 'pipe' (default: kept for errors and stderr()) or 'inherit'. */
  stderr?: 'pipe' | 'inherit';
}

/** Starts a sandbox on a free loopback port; resolves once it is ready. */
export declare function startSandbox(options?: StartOptions): Promise<Sandbox>;

/** The binary's path: SIGNSANDBOX_BINARY, or the installed platform package's. */
export declare function binaryPath(): string;

/** An error answer of the sandbox. */
export declare class SandboxError extends Error {
  readonly status: number;
  readonly body: any;
}

export interface Clock {
  now: number;
  time: string;
  mode: 'fake' | 'real';
  next_job_at?: number;
}

export interface AdvanceBody {
  seconds?: number;
  duration?: string;
  to?: string;
  wait_callbacks?: boolean;
}

export interface AdvanceResult extends Clock {
  jobs: Array<{ id: string; kind: string; subject: string; at: number; error?: string }>;
}

export interface Email {
  id: string;
  kind: string;
  to: string;
  name?: string;
  subject: string;
  signature_request_id?: string;
  signature_id?: string;
  link?: string;
  sent_at: number;
  [field: string]: unknown;
}

export interface CallbackEvent {
  id: string;
  event_type: string;
  event_time: number;
  object_type: string;
  object_id: string;
  object: Record<string, any>;
  [field: string]: unknown;
}

export type SignatureRequest = Record<string, any> & { signature_request_id: string };
