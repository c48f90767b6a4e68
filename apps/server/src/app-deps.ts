/**
 * What the app hands its modules, apart from the app that builds it: modules take their
 * dependencies from here, never from app.ts, which imports every module (docs/architecture.md,
 * "Direction of dependencies"). This file names only the bottom floors (config, db, lib).
 */
import type { Redis } from 'ioredis';
import type { AppConfig } from './config/config.js';
import type { Database } from './db/client.js';
import type { JobRunner } from './lib/jobs.js';
import type { KvStore } from './lib/kv-store.js';

/** What services need from the outside world; built once per app, closed with it. */
export interface AppDeps {
  config: AppConfig;
  database: Database;
  redis: Redis | null;
  /** Short-lived shared state: Redis when configured, else the database (kv_store). */
  kv: KvStore;
  /**
   * Durable background jobs (lib/jobs.ts): modules `register` their kinds while the app is
   * built and `kick()` after an enqueue; the runner starts when the app is ready, stops on close.
   */
  jobs: JobRunner;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every route as registered (method, url, onRequest hooks, config): tests walk it. */
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    /** The operation-record action a write declares (admin and expert writes must). */
    audit?: string;
  }
}

export interface RouteEntry {
  method: string | string[];
  url: string;
  onRequest: unknown[];
  config: { audit?: string } | undefined;
}
