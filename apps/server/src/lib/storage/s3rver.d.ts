// s3rver ships no types; only what the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number;
    address?: string;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }
  /** An S3 event notification, as s3rver emits one for every stored or removed object. */
  export interface S3rverEvent {
    Records: Array<{ eventName: string; s3: { bucket: { name: string }; object: { key: string; size?: number } } }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: S3rverEvent) => void): this;
  }
}
